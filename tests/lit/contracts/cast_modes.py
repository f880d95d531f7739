# RUN: ptodist check %s --verify-diagnostics
# pl.cast's mode: PyPTO's names or codes 0 to 6; a scalar takes the default only; 'odd' rounds to a
# float only.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        n: pl.Scalar[pl.INT32],
        y: pl.Out[pl.Tensor[[4, 16], pl.INT32]],
    ):
        t = pl.load(x, [0, 0], [4, 16])
        # expected-error@+1 {{pl.cast: 'mode' must be one of 'none', 'rint', 'round', 'floor', 'ceil', 'trunc', 'odd' or their codes 0 to 6, got 'nearest'}}
        a = pl.cast(t, pl.INT32, mode="nearest")
        # expected-error@+1 {{pl.tile.cast: 'mode' must be one of 'none', 'rint', 'round', 'floor', 'ceil', 'trunc', 'odd' or their codes 0 to 6, got 7}}
        b = pl.tile.cast(t, pl.INT32, mode=7)
        # expected-error@+1 {{pl.cast: mode='odd' rounds to a float dtype only, got target_type pl.INT32}}
        c = pl.cast(t, pl.INT32, mode="odd")
        # expected-error@+1 {{pl.cast: Scalar inputs do not support non-default mode, got mode=3}}
        d = pl.cast(n, pl.FP32, mode=3)
        e = pl.cast(n, pl.FP32, mode="round")
        f = pl.tensor.cast(x, pl.INT32, mode="ceil")
        y = pl.store(pl.cast(t, pl.INT32, mode=5), [0, 0], y)
        return y
