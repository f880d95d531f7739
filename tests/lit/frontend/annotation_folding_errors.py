# RUN: ptodist check %s --verify-diagnostics
# Dims that fold to another integer than the value's, or that do not fold before specialize (a factory
# parameter), keep an annotation apart from the value's type.
import pypto.language as pl

M, N = 16, 16


def build(cols=32):
    @pl.program
    class Folded:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[M, N], pl.FP32]):
            a = pl.load(x, [0, 0], [M, N])
            # expected-error@+1 {{value of type pl.Tile[[M, (((((N + 7) // 8) + 31) // 32) * 32)], pl.UINT8, pl.Mem.Vec] does not match the annotation pl.Tile[[M, 64], pl.UINT8, pl.Mem.Vec] of 'wide'}}
            wide: pl.Tile[[M, 64], pl.UINT8] = pl.tile.cmp(a, a, cmp_type=0)
            # expected-error@+1 {{does not match the annotation pl.Tile[[M, cols], pl.UINT8, pl.Mem.Vec] of 'param'}}
            param: pl.Tile[[M, cols], pl.UINT8] = pl.tile.cmp(a, a, cmp_type=0)

    return Folded
