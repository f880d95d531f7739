# RUN: ptodist check %s --verify-diagnostics
# What `.shape` / `.dtype` do not cover, and a bare pl.Tensor parameter on the command line.
import pypto.language as pl

N = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[4, N], pl.FP32], y: pl.Out[pl.Tensor[[4, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{attribute access on 'x' is not supported; a tensor or tile has '.shape' and '.dtype'}}
    a = x.size
    # expected-error@+1 {{attribute access on 'n' is not supported; a tensor or tile has '.shape' and '.dtype'}}
    b = n.shape
    t = pl.load(x, [0, 0], [4, N])
    return pl.store(t, [0, 0], y)


@pl.jit.incore
# expected-error@+1 {{'pl.Tensor' needs its parameters, e.g. pl.Tensor[[M, K], pl.FP16]; a bare pl.Tensor parameter of a @pl.jit function takes the shape of the tensor passed to it, which ptodist knows only when Python calls or compiles the function with tensors (docs/python.md)}}
def bare(a: pl.Tensor, c: pl.Out[pl.Tensor[[4, N], pl.FP32]]):
    return c
