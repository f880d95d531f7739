# A factory whose constants are arithmetic on its parameter: -D values that make them overflow.
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, m_local=4):
    M = m_local * 4

    @pl.program
    class Scaled:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[1, M], pl.FP32], y: pl.Out[pl.Tensor[[1, M], pl.FP32]]):
            t = pl.load(x, [0, 0], [1, M])
            y = pl.store(t, [0, 0], y)
            return y

    return Scaled
