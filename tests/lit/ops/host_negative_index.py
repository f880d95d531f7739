# A negative index on the host counts from the end, as in Python: x[-1] is the last slice and
# x[r - N_RANKS] is x[r]; past the start it is an error that says so. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "x[-1] + x"
# RUN: not ptodist run %s --ranks 2 --in x=%t/x.npy -D back=3 2>&1 | FileCheck %s
# CHECK: error: index -3 is out of range for 'x' whose leading dim is 2 (a negative index counts from the end)
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 4
COLS = 8


def build(n_ranks, back=1):
    @pl.jit.incore
    def add_last(
        last: pl.Tensor[[ROWS, COLS], pl.FP32],
        mine: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ):
        a = pl.load(last, [0, 0], [ROWS, COLS])
        b = pl.load(mine, [0, 0], [ROWS, COLS])
        y = pl.store(pl.add(a, b), [0, 0], y)
        return y

    @pl.jit
    def per_rank(
        last: pl.Tensor[[ROWS, COLS], pl.FP32],
        mine: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ):
        return add_last(last, mine, y)

    @pl.jit.host
    def host_negative_index(
        x: pl.Tensor[[n_ranks, ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[n_ranks, ROWS, COLS], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            per_rank(x[-back], x[r - n_ranks], y[r], device=r)

    return host_negative_index
