# Two runnable programs in one file: Plus1 writes y = x + 1 on every rank, Plus2 writes y = x + 2.
import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.jit.incore
def add_one(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(pl.adds(t, 1.0), [0, 0], y)
    return y


@pl.jit.incore
def add_two(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(pl.adds(t, 2.0), [0, 0], y)
    return y


@pl.jit.host
def plus1(x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        add_one(x[r], y[r], device=r)


@pl.jit.host
def plus2(x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        add_two(x[r], y[r], device=r)
