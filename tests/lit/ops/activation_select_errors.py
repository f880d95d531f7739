# RUN: ptodist check %s --verify-diagnostics
# What pl.tile.lrelu / prelu / sels, pl.sin / pl.cos, pl.not_ and high-precision pl.div reject, as
# PyPTO's type rules do: sin/cos are FP32-only (no promotion), not_ takes INT16/UINT16, prelu an
# FP16/FP32 src with a slope of its dtype, shape and valid region, sels an integer mask carrier with a
# bit for each valid column, and high_precision a float division.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        h: pl.Tensor[[16, 32], pl.FP16],
        i: pl.Tensor[[16, 32], pl.INT32],
        b: pl.Tensor[[16, 32], pl.INT8],
    ):
        t = pl.load(x, [0, 0], [16, 32])
        f = pl.load(h, [0, 0], [16, 32])
        n = pl.load(i, [0, 0], [16, 32])
        tmp = pl.tile.create([17, 32], dtype=pl.UINT8)
        # expected-error@+1 {{pl.tile.sin: 'tile' must have dtype pl.FP32 (sin is FP32-only), got pl.FP16; use pl.cast(x, pl.FP32) first}}
        a = pl.tile.sin(f)
        # expected-error@+1 {{pl.cos: 'input' must have dtype pl.FP32 (cos is FP32-only), got pl.INT32}}
        c = pl.cos(n)
        # expected-error@+1 {{pl.tile.not_: 'tile' must have dtype pl.INT16 or pl.UINT16, got pl.INT32}}
        d = pl.tile.not_(n)
        # expected-error@+1 {{pl.tile.lrelu: 'slope' must be a scalar}}
        e = pl.tile.lrelu(t, t)
        # expected-error@+1 {{pl.tile.prelu: 'tile' must have dtype pl.FP16 or pl.FP32, got pl.INT32}}
        g = pl.tile.prelu(n, n, tmp)
        # expected-error@+1 {{pl.tile.prelu: 'slope' dtype pl.FP16 must match 'tile' dtype pl.FP32}}
        k = pl.tile.prelu(t, f, tmp)
        # expected-error@+1 {{pl.tile.prelu: 'slope' valid_shape [8, 32] must match 'tile' valid_shape [16, 32] (dimension 0 differs)}}
        m = pl.tile.prelu(t, pl.load(x, [0, 0], [16, 32], valid_shape=[8, 32]), tmp)
        mask = pl.tile.cmps(t, 0.0, cmp_type=4)
        # expected-error@+1 {{pl.tile.sels: 'mask' must be an 8-, 16- or 32-bit integer tile, got pl.FP32}}
        p = pl.tile.sels(t, t, tmp, 1.0)
        # expected-error@+1 {{pl.tile.sels: 'src' must have dtype pl.INT8, pl.UINT8, pl.INT16, pl.UINT16, pl.INT32, pl.UINT32, pl.FP16 or pl.FP32, got pl.INT64}}
        q = pl.tile.sels(mask, pl.tile.create([16, 32], dtype=pl.INT64), tmp, 1)
        # expected-error@+1 {{pl.tile.sels: 'mask' valid_shape [16, 1] of pl.INT8 must cover 'src' valid_shape [16, 32]: a row for each row and ceil(columns / 8) bytes per row}}
        r = pl.tile.sels(pl.load(b, [0, 0], [16, 32], valid_shape=[16, 1]), t, tmp, 1.0)
        # expected-error@+1 {{pl.tile.div: 'high_precision=True' needs a float operand (PTOAS's high-precision division has no integer template), got pl.INT32}}
        s = pl.tile.div(n, n, high_precision=True)


@pl.program
class ExpandCloneErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[2, 4, 8], pl.FP32],
        b: pl.Tensor[[1, 1, 8], pl.FP32],
        c: pl.Tensor[[4, 8], pl.FP32],
        h: pl.Out[pl.Tensor[[2, 4, 8], pl.FP16]],
        y: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]],
    ):
        # expected-error@+1 {{pl.expand_clone: 'src' [1, 1, 8] is broadcast in 2 dims to [2, 4, 8]; pl.expand_clone broadcasts at most one}}
        p = pl.expand_clone(b, y)
        # expected-error@+1 {{pl.expand_clone: 'src' must be a rank-3 tensor, got pl.Tensor[[4, 8], pl.FP32]}}
        q = pl.expand_clone(c, y)
        # expected-error@+1 {{pl.expand_clone: 'target' dtype pl.FP16 must match 'src' dtype pl.FP32 (ptodist does not promote here); use pl.cast}}
        r = pl.expand_clone(a, h)
        # expected-error@+1 {{pl.tensor.expand_clone: 'src' [2, 4, 8] cannot be expanded to [2, 4, 1] at dim 2: only a dim of 1 is broadcast}}
        s = pl.tensor.expand_clone(a, pl.tensor.create([2, 4, 1], dtype=pl.FP32))
