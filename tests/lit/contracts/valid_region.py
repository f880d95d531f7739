# RUN: ptodist check %s --verify-diagnostics
# The contracts of pl.set_validshape and pl.fillpad, after PyPTO's type rules: a 2-D operand, integer
# extents within its dims, a Vec tile for fillpad, and one of PyPTO's three pad values.
import pypto.language as pl



@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 8], pl.FP32],
        x3: pl.Tensor[[2, 4, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [4, 8])
        t3 = pl.load(x3, [0, 0, 0], [2, 4, 8])
        m = pl.load(x, [0, 0], [4, 8], target_memory=pl.Mem.Mat)
        # expected-error@+1 {{pl.set_validshape: 'input' must be 2-D, got pl.Tile[[2, 4, 8], pl.FP32, pl.Mem.Vec]}}
        a1 = pl.set_validshape(t3, 1, 1)
        # expected-error@+1 {{pl.tile.set_validshape: 'valid_rows' (5) exceeds the operand's dim 4}}
        a2 = pl.tile.set_validshape(t, 5, 2)
        # expected-error@+1 {{pl.set_validshape: 'valid_cols' must be >= 0, got -1}}
        a3 = pl.set_validshape(t, 1, -1)
        # expected-error@+1 {{pl.set_validshape: 'valid_rows' must be an integer scalar, got}}
        a4 = pl.set_validshape(t, 1.5, 2)
        # expected-error@+1 {{pl.tile.set_validshape: 'tile' must be a tile, got}}
        a5 = pl.tile.set_validshape(x, 1, 2)
        # expected-error@+1 {{pl.tensor.set_validshape: 'tensor' must be a tensor}}
        a6 = pl.tensor.set_validshape(t, 1, 2)
        # expected-error@+1 {{pl.fillpad: 'pad_value' must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min (or the literal 0), got}}
        b1 = pl.fillpad(t, pad_value=pl.PadValue.null)
        # expected-error@+1 {{pl.tile.fillpad: 'pad_value' must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min (or the literal 0), got}}
        b2 = pl.tile.fillpad(t, 1)
        # expected-error@+1 {{pl.fillpad: 'value' must be a tile in pl.Mem.Vec, got pl.Tile[[4, 8], pl.FP32, pl.Mem.Mat]}}
        b3 = pl.fillpad(m)
        # expected-error@+1 {{pl.tile.fillpad_inplace: 'tile' must be a tile, got}}
        b4 = pl.tile.fillpad_inplace(x)
        y = pl.store(t, [0, 0], y)
        return y
