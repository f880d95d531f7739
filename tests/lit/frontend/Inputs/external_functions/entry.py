# A program whose orchestrator calls kernels by bare name: one defined at module level in this file,
# two imported from a kernel file beside it (one under another name). y = (x * 3 + 1) * 2.
import pypto.language as pl
from shared_kernels import COLS, kernel_offset
from shared_kernels import kernel_scale as triple


@pl.function(type=pl.FunctionType.InCore)
def kernel_double(x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [1, COLS])
    y = pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.program
class UsesOutsideKernels:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]):
        a = pl.create_tensor([1, COLS], dtype=pl.FP32)
        b = pl.create_tensor([1, COLS], dtype=pl.FP32)
        a = triple(x, a)
        b = kernel_offset(a, b)
        y = kernel_double(b, y)
