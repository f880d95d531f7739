# RUN: ptodist compile %s --emit=ir | FileCheck %s
# An annotation agrees with the value's type when their dims fold to the same integers through the
# module constants, as PyPTO's Python evaluates both: pl.cmp's mask of a [M, N] tile has
# ((N + 7) // 8 + 31) // 32 * 32 columns, which is 32 for N = 16 (annotation_folding_errors.py: the
# dims that fold to another integer, or do not fold).
import pypto.language as pl

M, N = 16, 16
W = 4 * 8


@pl.program
class Folded:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[M, N], pl.FP32], y: pl.Tensor[[M, N], pl.FP32]):
        a = pl.load(x, [0, 0], [M, N])
        b = pl.load(y, [0, 0], [M, N])
        # CHECK: mask: pl.Tile{{\[\[}}M, 32], pl.UINT8, pl.Mem.Vec] = pl.tile.cmp(a, b, cmp_type=0)
        mask: pl.Tile[[M, 32], pl.UINT8] = pl.tile.cmp(a, b, cmp_type=0)
        # CHECK: other: pl.Tile{{\[\[}}M, W], pl.UINT8, pl.Mem.Vec] = pl.tile.cmp(a, b, cmp_type=1)
        other: pl.Tile[[M, W], pl.UINT8] = pl.tile.cmp(a, b, cmp_type=1)

    # A slice `x[0:M, :]` is typed [M - 0, N]: rebinding `acc` (bound as [M, N] outside the loop) to it
    # inside the loop is the same type once the dims fold.
    # CHECK-LABEL: def rebind(
    # CHECK: acc = pl.create_tensor([M, N], pl.FP32)
    # CHECK: acc = pl.slice(x, [M - 0, N], [0, 0])
    @pl.function(type=pl.FunctionType.InCore)
    def rebind(self, x: pl.Tensor[[M, N], pl.FP32], y: pl.Out[pl.Tensor[[M, N], pl.FP32]]):
        acc = pl.create_tensor([M, N], dtype=pl.FP32)
        for i in pl.range(2):
            acc = x[0:M, :]
        y = pl.assemble(y, acc, [0, 0])
