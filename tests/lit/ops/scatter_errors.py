# RUN: ptodist check %s --verify-diagnostics
# What pl.scatter rejects, as PyPTO's DeduceTensorScatterType / DeduceTensorScatterMaskType do: a
# source that is not a 2-D GM tensor of a scatterable dtype, a dim other than the last, an index of the
# wrong width, a src not shaped as its index or wider than the input, the two forms mixed, and a dst
# whose columns are not the input's times the pattern's stride.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        base: pl.Tensor[[8, 16], pl.FP32],
        base3: pl.Tensor[[2, 8, 16], pl.FP32],
        flags: pl.Tensor[[8, 16], pl.BOOL],
        idx: pl.Tensor[[8, 4], pl.INT32],
        idx16: pl.Tensor[[8, 4], pl.INT16],
        idx_wide: pl.Tensor[[8, 32], pl.INT32],
        val: pl.Tensor[[8, 4], pl.FP32],
        val16: pl.Tensor[[8, 4], pl.FP16],
        val_wide: pl.Tensor[[8, 32], pl.FP32],
        rows: pl.Tensor[[8, 4], pl.FP32],
    ):
        t = pl.load(base, [0, 0], [8, 16])
        # expected-error@+1 {{pl.scatter: 'input' must be a tensor in GM (pl.Tensor or pld.DistributedTensor), got pl.Tile[[8, 16], pl.FP32, pl.Mem.Vec]}}
        a = pl.scatter(t, dim=-1, index=idx, src=val)
        # expected-error@+1 {{pl.scatter: 'input' must be 2-D, got pl.Tensor[[2, 8, 16], pl.FP32]}}
        b = pl.scatter(base3, dim=-1, index=idx, src=val)
        # expected-error@+1 {{pl.scatter: 'dim' must be -1 (the last axis; the only one scattered along), got 0}}
        c = pl.scatter(base, dim=0, index=idx, src=val)
        # expected-error@+1 {{pl.scatter: 'index' must have dtype pl.INT32 for a pl.FP32 input, got pl.INT16}}
        d = pl.scatter(base, dim=-1, index=idx16, src=val)
        # expected-error@+1 {{pl.scatter: 'src' dtype pl.FP16 must match 'input' dtype pl.FP32}}
        e = pl.scatter(base, dim=-1, index=idx, src=val16)
        # expected-error@+1 {{pl.scatter: 'src' must be 2-D with the shape of 'index' ([8, 4]), got pl.Tensor[[8, 32], pl.FP32]}}
        f = pl.scatter(base, dim=-1, index=idx, src=val_wide)
        # expected-error@+1 {{pl.scatter: 'src' dim 1 (32) exceeds the input's (16)}}
        g = pl.scatter(base, dim=-1, index=idx_wide, src=val_wide)
        # expected-error@+1 {{pl.scatter: the index form needs 'dim', 'index' and 'src'}}
        h = pl.scatter(base, dim=-1, index=idx)
        # expected-error@+1 {{pl.tensor.scatter: the index form (dim, index, src) and the mask form (mask_pattern=, dst=) are mutually exclusive}}
        i = pl.tensor.scatter(rows, dim=-1, mask_pattern=pl.tile.MaskPattern.P0101, dst=base)
        # expected-error@+1 {{pl.tensor.scatter: 'dst' must have the input's rows and 2 times its columns for this pattern, got pl.Tensor[[8, 16], pl.FP32] for an input of [8, 4]}}
        j = pl.tensor.scatter(rows, mask_pattern=pl.tile.MaskPattern.P1010, dst=base)
        # expected-error@+1 {{pl.tensor.scatter: the mask form needs 'dst'}}
        k = pl.tensor.scatter(rows, mask_pattern=pl.tile.MaskPattern.P0001)
        # expected-error@+1 {{pl.tensor.scatter: 'mask_pattern' must be a pl.tile.MaskPattern member (an integer 1 to 7), got pl.Scalar[pl.INT64]}}
        m = pl.tensor.scatter(rows, mask_pattern=9, dst=base)
        # expected-error@+1 {{pl.scatter: 'input' must have dtype pl.FP16, pl.BF16, pl.FP32, pl.INT8, pl.INT16 or pl.INT32, got pl.BOOL}}
        n = pl.scatter(flags, dim=-1, index=idx, src=val)
