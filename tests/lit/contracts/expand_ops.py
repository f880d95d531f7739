# RUN: ptodist check %s --verify-diagnostics
# The broadcast family's contracts: PyPTO's signatures, one dtype, the vector's shape.
import pypto.language as pl

ROWS = 4
COLS = 8


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        h: pl.Tensor[[ROWS, COLS], pl.FP16],
        n: pl.Tensor[[ROWS, COLS], pl.INT32],
        b: pl.Tensor[[ROWS, COLS], pl.BF16],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        ht = pl.load(h, [0, 0], [ROWS, COLS])
        k = pl.load(n, [0, 0], [ROWS, COLS])
        bt = pl.load(b, [0, 0], [ROWS, COLS])
        rv = pl.load(x, [0, 0], [ROWS, 1])
        cv = pl.load(x, [0, 0], [1, COLS])
        # expected-error@+1 {{pl.row_expand_mul: 'rhs' must have shape [ROWS, 1] (one value per row of 'lhs'), got [1, COLS]}}
        a1 = pl.row_expand_mul(t, cv)
        # expected-error@+1 {{pl.tile.col_expand_add: 'col_vec' must have shape [1, COLS] (one value per column of 'tile'), got [ROWS, 1]}}
        a2 = pl.tile.col_expand_add(t, rv)
        # expected-error@+1 {{pl.row_expand_sub: 'rhs' dtype pl.FP32 must match 'lhs' dtype pl.FP16; use pl.cast}}
        a3 = pl.row_expand_sub(ht, rv)
        # expected-error@+1 {{pl.row_expand_expdif: 'lhs' must have a float dtype (pl.FP32, pl.FP16 or pl.BF16), got pl.INT32}}
        a4 = pl.row_expand_expdif(k, pl.load(n, [0, 0], [ROWS, 1]))
        # expected-error@+1 {{pl.tile.row_expand_div: 'tile' must be a tile, got pl.Tensor[[ROWS, COLS], pl.FP32]}}
        a5 = pl.tile.row_expand_div(x, rv)
        # expected-error@+1 {{pl.col_expand_mul: unexpected keyword argument 'col_vec'}}
        a6 = pl.col_expand_mul(t, col_vec=cv)
        # expected-error@+1 {{pl.row_expand_add: 'lhs' must have dtype pl.INT8, pl.INT16, pl.INT32, pl.FP16 or pl.FP32, got pl.BF16}}
        a7 = pl.row_expand_add(bt, pl.load(b, [0, 0], [ROWS, 1]))
        # expected-error@+1 {{pl.col_expand: 'rhs' must be 2-D, got pl.Tile[[COLS], pl.FP32, pl.Mem.Vec]}}
        a8 = pl.col_expand(t, pl.reshape(cv, [COLS]))
        # expected-error@+1 {{pl.tensor.row_expand_mul: 'row_vec' must have shape [ROWS, 1] (one value per row of 'tensor'), got [ROWS, COLS]}}
        a9 = pl.tensor.row_expand_mul(x, x)
        c1 = pl.tile.col_expand_mul(t, col_vec=cv)
        c2 = pl.tile.row_expand_add(t, rv, pl.create_tile([ROWS, COLS], dtype=pl.FP32))
        c3 = pl.tile.row_expand(target=t, row_vec=rv)
        y = pl.store(c1, [0, 0], y)
        return y
