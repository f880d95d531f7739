# RUN: ptodist check %s --verify-diagnostics
# The axis reductions' contracts, after PyPTO's: a 2-D Vec tile, the scratch tile each one asks for,
# row_min's dtypes, and no scratch on a tensor.
import pypto.language as pl



@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 8], pl.FP32],
        x3: pl.Tensor[[2, 4, 8], pl.FP32],
        b: pl.Tensor[[4, 8], pl.BF16],
        y: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [4, 8])
        t3 = pl.load(x3, [0, 0, 0], [2, 4, 8])
        bt = pl.load(b, [0, 0], [4, 8])
        m = pl.load(x, [0, 0], [4, 8], target_memory=pl.Mem.Mat)
        tmp = pl.create_tile([4, 8], dtype=pl.FP32)
        small = pl.create_tile([4, 4], dtype=pl.FP32)
        big = pl.create_tile([4, 16], dtype=pl.FP32)
        # expected-error@+1 {{pl.row_min: 'tmp_tile' is required for a tile input}}
        a1 = pl.row_min(t)
        # expected-error@+1 {{pl.tile.row_prod: 'tmp_tile' must have the input's dtype and rank and be at least as large in every dim}}
        a2 = pl.tile.row_prod(t, small)
        # A larger scratch is fine for row_prod, but argmax wants the input's exact shape.
        a3 = pl.row_prod(t, big)
        # expected-error@+1 {{pl.row_argmax: 'tmp_tile' must have the input's dtype and shape}}
        a4 = pl.row_argmax(t, big)
        # expected-error@+1 {{pl.row_min: 'input' must have dtype pl.INT16, pl.INT32, pl.FP16 or pl.FP32, got pl.BF16}}
        a5 = pl.row_min(bt, bt)
        # expected-error@+1 {{pl.col_max: 'input' must be 2-D, got pl.Tile[[2, 4, 8], pl.FP32, pl.Mem.Vec]}}
        a6 = pl.col_max(t3)
        # expected-error@+1 {{pl.tile.col_min: 'tile' must be a tile in pl.Mem.Vec, got pl.Tile[[4, 8], pl.FP32, pl.Mem.Mat]}}
        a7 = pl.tile.col_min(m)
        # expected-error@+1 {{pl.col_sum: 'tmp_tile' is a tile scratch; a tensor-level call takes none}}
        a8 = pl.col_sum(x, tmp)
        # expected-error@+1 {{pl.tensor.row_sum: 'input' must be a tensor}}
        a9 = pl.tensor.row_sum(t)
        # expected-error@+1 {{pl.tile.col_argmax: 'tmp_tile' must have the input's dtype and shape}}
        b1 = pl.tile.col_argmax(t, small)
        y = pl.store(t, [0, 0], y)
        return y
