# RUN: ptodist check %s --verify-diagnostics
# pl.arange's contract, after PyPTO's tile.ci: one row of constant length (not 1), INT32, INT16, UINT32 or UINT16, a
# start of that dtype.
import pypto.language as pl

N = 8


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        base: pl.Tensor[[1], pl.INT32],
        y: pl.Out[pl.Tensor[[1, N], pl.INT32]],
    ):
        b0 = pl.read(base, [0])
        # expected-error@+1 {{pl.tile.arange: 'shape' must have leading dims of 1 (pto.tci fills one row), got [2, N]}}
        a1 = pl.tile.arange(0, [2, N])
        # expected-error@+1 {{pl.tile.arange: 'shape' must not end in 1 (pto.tci fills a row), got [N, 1]}}
        a2 = pl.tile.arange(0, [N, 1])
        # expected-error@+1 {{pl.arange: 'dtype' must be pl.INT32, pl.INT16, pl.UINT32 or pl.UINT16, got pl.FP32}}
        a3 = pl.arange(0, [1, N], dtype=pl.FP32)
        # expected-error@+1 {{pl.tile.ci: 'start' dtype pl.INT32 must match 'dtype' pl.INT16; use pl.cast}}
        a4 = pl.tile.ci(b0, [1, N], dtype=pl.INT16)
        # expected-error@+1 {{pl.tile.arange: 'start' must be an integer scalar, got}}
        a5 = pl.tile.arange(1.5, [1, N])
        # expected-error@+1 {{pl.tile.arange: 'descending' must be True or False, got}}
        a6 = pl.tile.arange(0, [1, N], descending=1)
        a = pl.tile.arange(0, [1, N])
        y = pl.store(a, [0, 0], y)
        return y
