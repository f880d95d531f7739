# RUN: ptodist check %s --verify-diagnostics
# The gather contracts, after PyPTO's tensor.gather / tile.gather / tile.gather_mask: source dtypes,
# index dtype, rank and dims, one form at a time, the mask pattern and the columns it needs.
import pypto.language as pl



@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 8], pl.FP32],
        xi8: pl.Tensor[[4, 8], pl.INT8],
        x6: pl.Tensor[[4, 6], pl.FP32],
        idx: pl.Tensor[[4, 4], pl.INT32],
        idx16: pl.Tensor[[4, 4], pl.INT16],
        big: pl.Tensor[[8, 4], pl.INT32],
        y: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    ):
        # expected-error@+1 {{pl.gather: 'input' must have dtype pl.FP16, pl.FP32, pl.INT16 or pl.INT32, got pl.INT8}}
        a1 = pl.gather(xi8, dim=-1, index=idx)
        # expected-error@+1 {{pl.gather: 'index' must have dtype pl.INT32 (or pl.INT16 with a 16-bit source), got pl.INT16 with a pl.FP32 source}}
        a2 = pl.gather(x, dim=-1, index=idx16)
        # expected-error@+1 {{pl.gather: 'dim' must be a constant in [-2, 1], got pl.Scalar[pl.INT64]}}
        a3 = pl.gather(x, dim=2, index=idx)
        # Off the gathered dim an index position names an input position; along it any size goes.
        # expected-error@+1 {{pl.gather: 'index' dim 0 (8) exceeds the input's (4)}}
        a4 = pl.gather(x, dim=-1, index=big)
        a4b = pl.gather(x, dim=0, index=big)
        # expected-error@+1 {{pl.gather: 'input' must be 2-D, got pl.Tensor[[32], pl.FP32]}}
        a4c = pl.gather(pl.reshape(x, [32]), mask_pattern=1)
        # expected-error@+1 {{pl.gather: the index form (dim, index), the mask form (mask_pattern=) and the compare form (kvalue=, cmp_mode=, out_cols=) are mutually exclusive}}
        a5 = pl.gather(x, dim=-1, index=idx, mask_pattern=1)
        # expected-error@+1 {{pl.tensor.gather: the compare form (kvalue=, cmp_mode=, out_cols=) is not supported by ptodist yet}}
        a6 = pl.tensor.gather(x, kvalue=1.0, cmp_mode="eq", out_cols=8)
        # expected-error@+1 {{pl.gather: 'mask_pattern' must be a pl.tile.MaskPattern member (an integer 1 to 7), got}}
        a7 = pl.gather(x, mask_pattern=9)
        # expected-error@+1 {{pl.gather: mask pattern 3 needs the columns (6) to be a multiple of 4}}
        a8 = pl.gather(x6, mask_pattern=pl.tile.MaskPattern.P0001)
        # expected-error@+1 {{pl.gather: 'output_dtype' pl.FP16 must have the width of pl.FP32 (the bits are reinterpreted)}}
        a9 = pl.gather(x, mask_pattern=2, output_dtype=pl.FP16)
        # expected-error@+1 {{pl.gather: 'output_dtype' is only valid for the mask form (mask_pattern=...)}}
        b1 = pl.gather(x, dim=-1, index=idx, output_dtype=pl.INT32)
        # expected-error@+1 {{unknown member 'P0110' of pl.tile.MaskPattern}}
        b2 = pl.gather(x, mask_pattern=pl.tile.MaskPattern.P0110)
        t = pl.load(x, [0, 0], [4, 8])
        # expected-error@+1 {{pl.gather: 'input' must be a tensor}}
        b3 = pl.gather(t, mask_pattern=1)
        ti = pl.load(idx, [0, 0], [4, 4])
        # expected-error@+1 {{pl.tile.gather: 'indices' must be a tile, got}}
        b4 = pl.tile.gather(t, idx, ti)
        y = pl.store(t, [0, 0], y)
        return y
