# Wrong expectations: one on the wrong line, one that never happens; verification fails.
import pypto.language as pl


@pl.program
class ExpectWrong:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
        t = pl.load(x, [0, 0], [1, 64])  # expected-error {{this text is not in the message}}
        t = pl.load(x, [0, 32], [1, 64])
        y = pl.store(t, [0, 0], y)
        # expected-error@+1 {{nothing wrong here}}
        return y
