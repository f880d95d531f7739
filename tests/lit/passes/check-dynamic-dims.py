# RUN: ptodist check %s --verify-diagnostics
# `check` reports what `run` or `--emit=pto` would reject later: a dynamic dim no host parameter binds,
# and one a kernel uses without a tensor parameter that brings its value.
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
K = pl.dynamic("K")


@pl.jit.incore
def kernel(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    # expected-error@+1 {{kernel 'kernel' uses the dynamic dim 'NR', which no tensor parameter of it has in its shape}}
    for i in pl.range(NR):
        t = pl.load(x, [0, 0], [64, 64])
        y = pl.store(t, [0, 0], y)
    return y


@pl.jit.incore
def rows(x: pl.Tensor[[K, 64], pl.FP32], y: pl.Out[pl.Tensor[[K, 64], pl.FP32]]):
    # A kernel's own parameter brings K to PTO code, but no host tensor binds it for a run.
    # expected-error@+1 {{the dynamic dim 'K' is not in the shape of any parameter of the host orchestrator 'host', so a run cannot bind it}}
    for i in pl.range(K):
        t = pl.load(x, [i, 0], [1, 64])
        y = pl.store(t, [i, 0], y)
    return y


@pl.jit
def chip(
    x: pl.Tensor[[64, 64], pl.FP32],
    y: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    # A parameter's dims come with the tensor passed: not a use.
    z: pl.Tensor[[K, 64], pl.FP32],
    w: pl.Out[pl.Tensor[[K, 64], pl.FP32]],
):
    y = kernel(x, y)
    return rows(z, w)


@pl.jit.host
def host(
    x: pl.Tensor[[NR, 64, 64], pl.FP32],
    y: pl.Out[pl.Tensor[[NR, 64, 64], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], x[r], y[r], device=r)
