# RUN: ptodist check %s --verify-diagnostics
# `~` and the bit operators take integers (Python raises TypeError on a float; PyPTO's bit ops require
# integer dtypes): a float operand is an error at compile time, constant or not.
import pypto.language as pl


@pl.program
class BitsOnFloats:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        f = pl.read(x, [0, 0])
        # expected-error@+1 {{operator '~' expects an integer operand, got pl.Scalar[pl.FP32]}}
        a = ~1.5
        # expected-error@+1 {{operator '&' expects integer operands, got pl.Scalar[pl.FP32]}}
        b = 2.5 & 1
        # expected-error@+1 {{operator '<<' expects integer operands, got pl.Scalar[pl.FP32]}}
        c = 1 << f
        # expected-error@+1 {{operator '~' expects an integer operand}}
        d = ~f
        return y
