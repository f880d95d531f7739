# A program error: the load reads past the end of the tensor.
import pypto.language as pl


@pl.program
class BadLoad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
        t = pl.load(x, [0, 32], [1, 64])
        y = pl.store(t, [0, 0], y)
        return y
