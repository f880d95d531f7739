# The load reads past the end of x: the expected error matches, so verification passes.
import pypto.language as pl


@pl.program
class ExpectOk:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
        # expected-error@+1 {{pl.load}}
        t = pl.load(x, [0, 32], [1, 64])
        y = pl.store(t, [0, 0], y)
        return y
