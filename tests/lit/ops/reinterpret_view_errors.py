# RUN: ptodist check %s --verify-diagnostics
# What pl.reinterpret_view rejects, as PyPTO's reinterpret_view semantics do: the same dtype, a dtype
# that is not byte-addressable, a last dim the wider dtype does not divide, an explicit shape of other
# bytes, another shape for a partially valid tile; and, not yet in ptodist, a GM tensor.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[8, 16], pl.FP32], h: pl.Tensor[[8, 3], pl.FP16]):
        t = pl.load(x, [0, 0], [8, 16])
        # expected-error@+1 {{pl.reinterpret_view: 'dtype' must differ from the tile's pl.FP32; use pl.reshape for a shape-only change}}
        a = pl.reinterpret_view(t, pl.FP32)
        # expected-error@+1 {{pl.reinterpret_view: dtype pl.BOOL cannot be reinterpreted}}
        b = pl.reinterpret_view(t, pl.BOOL)
        u = pl.load(h, [0, 0], [8, 3])
        # expected-error@+1 {{pl.reinterpret_view: shape dim 1 (3) is not divisible by 2 for the wider target dtype}}
        c = pl.reinterpret_view(u, pl.FP32)
        # expected-error@+1 {{pl.reinterpret_view: 'shape' [8, 8] of pl.INT16 holds 128 bytes, the tile 512}}
        d = pl.reinterpret_view(t, pl.INT16, shape=[8, 8])
        v = pl.load(x, [0, 0], [8, 16], valid_shape=[8, 6])
        # expected-error@+1 {{pl.reinterpret_view: a partially valid tile keeps its valid region only in the scaled shape [8, 32]; omit 'shape'}}
        e = pl.reinterpret_view(v, pl.INT16, shape=[16, 16])
        # expected-error@+1 {{pl.reinterpret_view: reinterpreting a GM tensor is not supported by ptodist yet}}
        f = pl.reinterpret_view(x, pl.INT32)
