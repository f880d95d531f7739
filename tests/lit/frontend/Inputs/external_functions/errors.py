# Kernels outside the class that cannot be called as written: a host Python function, an unknown
# name; a method of the same name wins over the outside function.
import pypto.language as pl
from shared_kernels import COLS, host_helper


@pl.function(type=pl.FunctionType.InCore)
def kernel_copy(x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
    y = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], y)
    return y


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel_copy(self, x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
        y = pl.store(pl.load(x, [0, 0], [1, COLS]), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]):
        # expected-error@+1 {{methods of a @pl.program class are named through self: 'self.kernel_copy'}}
        y = kernel_copy(x, y)
        # expected-error@+1 {{'host_helper' is imported from module 'shared_kernels', where it is a host Python function}}
        y = host_helper(x, y)
        # expected-error@+1 {{call of unknown function 'kernel_missing'}}
        y = kernel_missing(x, y)
