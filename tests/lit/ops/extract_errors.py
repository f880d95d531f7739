# RUN: ptodist check %s --verify-diagnostics
# What pl.tile.extract rejects, as PyPTO's DeduceTileExtractType does: a source that is not a 2-D tile, a
# shape that is not two positive dims, a window past the source (TEXTRACT's bounds are hard),
# and a missing target_memory (keyword-only, required).
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 32], pl.FP32], n: pl.Scalar[pl.INDEX]):
        t = pl.load(x, [0, 0], [16, 32])
        # expected-error@+1 {{pl.tile.extract: 'src' must be a tile}}
        a = pl.tile.extract(x, 0, 0, [8, 16], target_memory=pl.Mem.Vec)
        # expected-error@+1 {{pl.tile.extract: 'shape' must have positive dims, but dim 0 is 0}}
        b = pl.tile.extract(t, 0, 0, [0, 16], target_memory=pl.Mem.Vec)
        # expected-error@+1 {{pl.tile.extract: 'shape' dim 1 (64) exceeds the source's (32)}}
        c = pl.tile.extract(t, 0, 0, [8, 64], target_memory=pl.Mem.Vec)
        # expected-error@+1 {{pl.tile.extract: region [12, 20) in dim 0 is out of bounds of 'src' (size 16)}}
        d = pl.tile.extract(t, 12, 0, [8, 16], target_memory=pl.Mem.Vec)
        # expected-error@+1 {{pl.tile.extract: 'index_col' must be an integer scalar, got pl.Scalar[pl.FP32]}}
        e = pl.tile.extract(t, 0, 1.5, [8, 16], target_memory=pl.Mem.Vec)
        # expected-error@+1 {{pl.tile.extract}}
        f = pl.tile.extract(t, 0, 0, [8, 16])
