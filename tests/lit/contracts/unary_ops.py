# RUN: ptodist check %s --verify-diagnostics
# The unary family's contracts: PyPTO's signatures (keywords, arity) and dtype rules.
import pypto.language as pl

ROWS = 4
COLS = 8


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        b: pl.Tensor[[ROWS, COLS], pl.BF16],
        n: pl.Tensor[[ROWS, COLS], pl.INT32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        bt = pl.load(b, [0, 0], [ROWS, COLS])
        k = pl.load(n, [0, 0], [ROWS, COLS])
        # expected-error@+1 {{pl.sqrt: 'input' must be a tile of a float dtype (pl.FP32, pl.FP16 or pl.BF16), got pl.INT32; use pl.cast first}}
        a1 = pl.sqrt(k)
        # expected-error@+1 {{pl.tile.log: 'tile' must have dtype pl.FP16 or pl.FP32, got pl.BF16}}
        a2 = pl.tile.log(bt)
        # expected-error@+1 {{pl.recip: 'high_precision=True' needs an FP16 or FP32 operand (PTOAS has no high-precision recip for pl.BF16)}}
        a3 = pl.recip(bt, high_precision=True)
        # expected-error@+1 {{pl.rsqrt: 'high_precision=True' needs an FP16 or FP32 operand (PTOAS has no high-precision rsqrt for pl.BF16)}}
        a4 = pl.rsqrt(bt, high_precision=True)
        # expected-error@+1 {{pl.tile.rsqrt: 'tmp' must be a tile in pl.Mem.Vec of dtype pl.FP32, got pl.Tile[[ROWS, COLS], pl.BF16, pl.Mem.Vec]}}
        a5 = pl.tile.rsqrt(t, bt)
        # expected-error@+1 {{pl.rsqrt: 'tmp' is the scratch tile of pl.tile.rsqrt(tile, tmp); here ask for the high-precision form with high_precision=True}}
        b1 = pl.rsqrt(t, tmp=t)
        # expected-error@+1 {{pl.tile.rsqrt: takes at most 2 arguments, got 3}}
        b2 = pl.tile.rsqrt(t, t, t)
        # expected-error@+1 {{pl.tile.rsqrt: unexpected keyword argument 'high_precision'}}
        b3 = pl.tile.rsqrt(t, high_precision=True)
        b4 = pl.rsqrt(t, high_precision=True)
        b5 = pl.tile.rsqrt(t, tmp=pl.tile.create([ROWS, COLS], dtype=pl.FP32))
        # expected-error@+1 {{pl.relu: 'tile' must be a tile}}
        a6 = pl.relu(x)
        # expected-error@+1 {{pl.tile.neg: 'tile' must be a tile, got pl.Tensor[[ROWS, COLS], pl.FP32]}}
        a7 = pl.tile.neg(x)
        # expected-error@+1 {{pl.tensor.abs: 'input' must be a}}
        a8 = pl.tensor.abs(t)
        # expected-error@+1 {{pl.neg: unexpected keyword argument 'tile'}}
        a9 = pl.neg(tile=t)
        c1 = pl.tile.neg(tile=t)
        # expected-error@+1 {{pl.tensor.log: 'input' must have dtype pl.FP16 or pl.FP32, got pl.INT32}}
        c2 = pl.tensor.log(n)
        c3 = pl.tensor.exp(x)
        y = pl.store(c1, [0, 0], y)
        return y
