# While loops in both of PyPTO's forms, and continue/break in counted and while loops, each writing one
# row of y. With x = zeros, by hand:
#   row 0: pl.while_ carrying a counter and a tile, 3 iterations of +1 ............................ 3
#   row 1: for i in range(6), odd i skipped by continue, +1 each (i = 0, 2, 4) ..................... 3
#   row 2: for i in range(10), break at i == 4, +1 each (i = 0..3) ................................. 4
#   row 3: while j < 100 with j += 1 first; continue when j % 3 == 0, break when j > 7 (j = 1 2 4 5 7)  5
#   row 4: a continue nested in two ifs: +10 for i = 0, 1, 3 ....................................... 30
#   row 5: a plain while that runs zero times (n = 0); the +7 after it runs ........................ 7
import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.jit.incore
def loops(x: pl.Tensor[[6, N], pl.FP32], y: pl.Out[pl.Tensor[[6, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    t0 = pl.load(x, [0, 0], [1, N])
    for (k, acc) in pl.while_(init_values=(0, t0)):
        pl.cond(k < 3)
        grown = pl.adds(acc, 1.0)
        k_out, acc_out = pl.yield_(k + 1, grown)
    y = pl.store(acc_out, [0, 0], y)

    s1 = pl.load(x, [1, 0], [1, N])
    for i in pl.range(6):
        if i % 2 != 0:
            continue
        s1 = pl.adds(s1, 1.0)
    y = pl.store(s1, [1, 0], y)

    s2 = pl.load(x, [2, 0], [1, N])
    for i in pl.range(10):
        if i == 4:
            break
        s2 = pl.adds(s2, 1.0)
    y = pl.store(s2, [2, 0], y)

    s3 = pl.load(x, [3, 0], [1, N])
    j = 0
    while j < 100:
        j = j + 1
        if j % 3 == 0:
            continue
        if j > 7:
            break
        s3 = pl.adds(s3, 1.0)
    y = pl.store(s3, [3, 0], y)

    s4 = pl.load(x, [4, 0], [1, N])
    for i in pl.range(4):
        if i > 0:
            if i == 2:
                continue
        s4 = pl.adds(s4, 10.0)
    y = pl.store(s4, [4, 0], y)

    s5 = pl.load(x, [5, 0], [1, N])
    m = 0
    while m < n:
        s5 = pl.adds(s5, 100.0)
        m = m + 1
    s5 = pl.adds(s5, 7.0)
    y = pl.store(s5, [5, 0], y)
    return y


@pl.jit
def chip(x: pl.Tensor[[6, N], pl.FP32], y: pl.Out[pl.Tensor[[6, N], pl.FP32]]):
    with pl.scope():
        loops(x, y, 0)


@pl.jit.host
def host(x: pl.Tensor[[pl.dynamic("NR"), 6, N], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 6, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], device=r)
