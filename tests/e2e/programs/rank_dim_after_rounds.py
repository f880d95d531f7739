# The rank dim need not lead: `x[rd, r]` passed with `device=r` makes dim 1 of x and y the rank count,
# so NR is bound from the run's ranks with no tensor or --dim giving it (PyPTO's signal-reuse programs
# hold [ROUNDS, NR, ...] inputs). `z[rd, g]` is indexed by a loop variable too, but its call runs on
# device 0 whatever g is, so its dim 1 (K) is not the rank count and stays for --dim or a tensor.
# Rank r writes y[rd][r][j] = x[rd][r][j] + 10 rd + r; device 0 writes z[rd][g][j] = x[rd][g][j] + 10 rd
# + g for g < K. The golden is in memory_and_dims_e2e_test.cpp.
import pypto.language as pl
import pypto.language.distributed as pld

ROUNDS = 3
SIZE = 32
NR = pl.dynamic("NR")
K = pl.dynamic("K")


@pl.jit.incore
def add_offset(
    x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]], offset: pl.Scalar[pl.INT32]
):
    row = pl.load(x, [0, 0], [1, SIZE])
    return pl.store(pl.adds(row, offset), [0, 0], y)


@pl.jit
def chip(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]], offset: pl.Scalar[pl.INT32]):
    return add_offset(x, y, offset)


@pl.jit.host
def host(
    x: pl.Tensor[[ROUNDS, NR, 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[ROUNDS, NR, 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[ROUNDS, K, 1, SIZE], pl.FP32]],
):
    for rd in pl.range(ROUNDS):
        for r in pl.range(pld.world_size()):
            chip(x[rd, r], y[rd, r], rd * 10 + r, device=r)
        for g in pl.range(K):
            chip(x[rd, g], z[rd, g], rd * 10 + g, device=0)
