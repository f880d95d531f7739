# Loop-carried values as PyPTO writes them: `for i, (acc,) in pl.range(n, init_values=(x,)):` with a
# loop-level `acc_out = pl.yield_(...)`, an if-yield in a branch, and a loop that runs zero times.
# With x = zeros: each of the 4 iterations adds 2, and the even ones 1 more through an if-yield: 10;
# a loop that runs zero times leaves it unchanged; the store adds 100: 110.
import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.jit.incore
def accumulate(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], zero: pl.Scalar[pl.INT32]):
    t = pl.load(x, [0, 0], [1, N])
    for i, (acc,) in pl.range(4, init_values=(t,)):
        if i % 2 == 0:
            step = pl.yield_(pl.adds(acc, 1.0))
        else:
            step = pl.yield_(pl.adds(acc, 0.0))
        step = pl.adds(step, 2.0)
        acc_out = pl.yield_(step)
    for _, (same,) in pl.range(zero, init_values=(acc_out,)):
        moved = pl.yield_(pl.adds(same, 1000.0))
    y = pl.store(pl.adds(moved, 100.0), [0, 0], y)
    return y


@pl.jit
def chip(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    with pl.scope():
        accumulate(x, y, 0)


@pl.jit.host
def host(x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], device=r)
