# RUN: ptodist check %s --verify-diagnostics
# Tile-scalar ops: a scalar divisor has no high-precision form (PyPTO raises), `scalar - tile` has no
# tile op, and the `s` forms take a tile and a scalar.
import pypto.language as pl


@pl.program
class TileScalar:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        a = pl.div(t, 2.0, high_precision=False)
        # expected-error@+1 {{pl.div: high_precision requires a tile or tensor 'rhs', not a scalar}}
        b = pl.div(t, 2.0, high_precision=True)
        # expected-error@+1 {{operator '-' is not supported on these tile operands; use the pl.* tile ops}}
        c = 1.0 - t
        # expected-error@+1 {{pl.tile.subs: 'rhs' must be a scalar}}
        d = pl.tile.subs(t, t)
        y = pl.store(a, [0, 0], y)
        return y
