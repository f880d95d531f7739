# RUN: ptodist check %s --verify-diagnostics
# A host call without device= runs on a rank the runtime picks (round-robin, as in PyPTO), so `check`
# rejects one that passes window tensors, and a host call of a kernel, which `run` would reject.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def kernel(x: pl.Tensor[[1, 64], pl.FP32], w: pld.DistributedTensor[[1, 64], pl.FP32]):
    t = pl.load(x, [0, 0], [1, 64])
    w = pl.store(t, [0, 0], w)
    return w


@pl.jit
def chip(x: pl.Tensor[[1, 64], pl.FP32], w: pld.DistributedTensor[[1, 64], pl.FP32]):
    return kernel(x, w)


@pl.jit
def plain(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    return y


@pl.jit.host
def host(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    buf = pld.alloc_window_buffer([1, 64], dtype=pl.FP32)
    w = pld.window(buf, [1, 64], dtype=pl.FP32)
    # expected-error@+1 {{call of 'chip': passes the window tensor 'w' (pld.DistributedTensor) without device=<rank>}}
    chip(x, w)
    # expected-error@+1 {{call of 'kernel': the host orchestrator dispatches chip orchestrations (pl.FunctionType.Orchestration), not kernels}}
    kernel(x, w)
    plain(x, y)
    chip(x, w, device=0)
