# A small factory-built program for the CLI tests.
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, rows=1):
    COLS = 64

    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[rows, COLS], pl.FP32], y: pl.Out[pl.Tensor[[rows, COLS], pl.FP32]]):
            t = pl.load(x, [0, 0], [rows, COLS])
            y = pl.store(t, [0, 0], y)
            return y

    return Copy
