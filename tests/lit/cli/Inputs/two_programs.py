# Two programs in one file: the CLI needs --program to choose.
import pypto.language as pl


@pl.program
class First:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
        t = pl.load(x, [0, 0], [1, 64])
        y = pl.store(t, [0, 0], y)
        return y


@pl.program
class Second:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
        t = pl.load(x, [0, 0], [1, 64])
        y = pl.store(t, [0, 0], y)
        return y
