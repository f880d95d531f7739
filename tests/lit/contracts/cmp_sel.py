# RUN: ptodist check %s --verify-diagnostics
# The contracts of pl.cmp / pl.cmps / pl.sel / pl.concat, after PyPTO's DeduceTileCmpType,
# DeduceTileSelType and DeduceTileConcatType; ptodist takes sel operands of one dtype and shape. Literal
# dims: shapes are compared once they are constant.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        h_gm: pl.Tensor[[4, 16], pl.FP16],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ):
        a = pl.load(x, [0, 0], [4, 16])
        h = pl.cast(a, target_type=pl.FP16)
        w = pl.load(x, [0, 0], [4, 8])
        tmp = pl.tile.create([1, 32], dtype=pl.UINT8)
        # expected-error@+1 {{pl.tile.cmp: 'cmp_type' must be an int literal from 0 to 5 (eq, ne, lt, le, gt, ge), got}}
        c1 = pl.tile.cmp(a, a, cmp_type=6)
        # expected-error@+1 {{pl.tile.cmp: 'rhs' dtype pl.FP16 must match 'lhs' dtype pl.FP32; use pl.cast}}
        c2 = pl.tile.cmp(a, h)
        # expected-error@+1 {{pl.cmp: 'rhs' shape [4, 8] must match 'lhs' shape [4, 16]}}
        c3 = pl.cmp(a, w)
        # expected-error@+1 {{pl.tile.cmp: 'rhs' must be a tile, got}}
        c4 = pl.tile.cmp(a, 1.0)
        # expected-error@+1 {{pl.tile.cmps: 'rhs' must be a scalar, got}}
        c5 = pl.tile.cmps(a, a)
        # expected-error@+1 {{pl.tile.cmps: 'lhs' must be a tile, got pl.Tensor[[4, 16], pl.FP32]}}
        c6 = pl.tile.cmps(x, 0.0)
        # expected-error@+1 {{pl.tensor.cmp: 'rhs' dtype pl.FP16 must match 'lhs' dtype pl.FP32; use pl.cast}}
        c7 = pl.tensor.cmp(x, h_gm)
        m = pl.tile.cmp(a, a, cmp_type=2)
        # expected-error@+1 {{pl.tile.sel: 'rhs' dtype pl.FP16 must match 'lhs' dtype pl.FP32 (ptodist does not promote here); use pl.cast}}
        s1 = pl.tile.sel(m, a, h, tmp)
        # expected-error@+1 {{pl.tile.sel: 'mask' must be a pl.UINT8 tile of [4, 16]'s rows with a bit per column (the result of pl.cmp), got}}
        s2 = pl.tile.sel(a, a, a, tmp)
        # expected-error@+1 {{pl.concat: 'src1' dtype pl.FP16 must match 'src0' dtype pl.FP32}}
        k1 = pl.concat(a, h)
        t = pl.load(x, [0, 0], [2, 16])
        # expected-error@+1 {{pl.tile.concat: 'src1' must have 4 rows as 'src0' has, got}}
        k2 = pl.tile.concat(a, t)
        y = pl.store(pl.sel(m, a, a, tmp), [0, 0], y)
        return y
