# RUN: ptodist check %s --verify-diagnostics
# A shape whose size in bytes cannot be represented in 64 bits is an error where it is written, not a
# wrapped size that passes `check` and fails (or corrupts memory) at run time.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Huge:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        # expected-error@+1 {{'shape' has more than 2^60 elements; its size in bytes does not fit in 64 bits}}
        t = pl.full([1 << 40, 1 << 40], dtype=pl.FP32, value=0.0)
        y = pl.store(t, [0, 0], y)
        return y
