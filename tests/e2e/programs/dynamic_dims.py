# Dynamic and composite dims bound at run time. `x` is indexed by the rank loop, so NR is the rank
# count everywhere (x and y are [NR, NR, 64]); `a` is [M * 2, N], solved from the tensor given (or
# --dim). Each rank r writes y[r][s] = x[r][s] + s for every s < NR, and rank 0 writes c = a * 2 (the
# program's own top-left 64x64 block). The golden is computed in runtime_e2e_test.cpp.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64
NR = pl.dynamic("NR")
M = pl.dynamic("M")
N = pl.dynamic("N")


@pl.jit.incore
def add_row_index(x: pl.Tensor[[NR, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[NR, SIZE], pl.FP32]]):
    for s in pl.range(pld.world_size()):
        row = pl.load(x, [s, 0], [1, SIZE])
        y = pl.store(pl.adds(row, s), [s, 0], y)
    return y


@pl.jit.incore
def double_block(a: pl.Tensor[[M * 2, N], pl.FP32], c: pl.Out[pl.Tensor[[M * 2, N], pl.FP32]]):
    t = pl.load(a, [0, 0], [64, 64])
    return pl.store(pl.muls(t, 2.0), [0, 0], c)


@pl.jit
def chip(
    x: pl.Tensor[[NR, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[NR, SIZE], pl.FP32]],
):
    return add_row_index(x, y)


@pl.jit
def chip_double(a: pl.Tensor[[M * 2, N], pl.FP32], c: pl.Out[pl.Tensor[[M * 2, N], pl.FP32]]):
    return double_block(a, c)


@pl.jit.host
def host(
    x: pl.Tensor[[NR, NR, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[NR, NR, SIZE], pl.FP32]],
    a: pl.Tensor[[M * 2, N], pl.FP32],
    c: pl.Out[pl.Tensor[[M * 2, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], device=r)
    chip_double(a, c, device=0)
