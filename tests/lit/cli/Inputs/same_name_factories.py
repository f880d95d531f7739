# Two factories that build programs of one name: selecting that name is ambiguous.
import pypto.language as pl


def make_small(world_size):
    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
            t = pl.load(x, [0, 0], [1, 64])
            y = pl.store(t, [0, 0], y)
            return y

    return Copy


def make_large(world_size):
    @pl.program
    class Copy:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[1, 128], pl.FP32], y: pl.Out[pl.Tensor[[1, 128], pl.FP32]]):
            t = pl.load(x, [0, 0], [1, 128])
            y = pl.store(t, [0, 0], y)
            return y

    return Copy
