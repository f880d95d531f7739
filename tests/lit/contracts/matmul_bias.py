# RUN: ptodist check %s --verify-diagnostics
# pl.tile.matmul_bias: 2-D cube operands (lhs in Left or Mat, rhs in Right or Mat, bias in Bias or Mat),
# equal input dtypes, equal K (rhs's valid rows covering lhs's valid K), a [1, N] bias of the
# accumulator dtype whose valid columns cover N.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        h: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[32, 16], pl.FP16],
        w8: pl.Tensor[[32, 16], pl.INT8],
        bias: pl.Tensor[[2, 16], pl.FP32],
        biasi: pl.Tensor[[1, 16], pl.INT32],
    ):
        a = pl.load(h, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        b = pl.load(w, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        b8 = pl.load(w8, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        bk = pl.load(w, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        bias_row = pl.load(bias, [0, 0], [1, 16], target_memory=pl.Mem.Mat)
        bias_two = pl.load(bias, [0, 0], [2, 16], target_memory=pl.Mem.Mat)
        bias_i = pl.load(biasi, [0, 0], [1, 16], target_memory=pl.Mem.Mat)
        bias_narrow = pl.load(bias, [0, 0], [1, 16], valid_shape=[1, 8], target_memory=pl.Mem.Mat)
        bias_short = pl.load(bias, [0, 0], [1, 8], target_memory=pl.Mem.Mat)
        v = pl.load(h, [0, 0], [16, 32])
        b_narrow = pl.load(w, [0, 0], [32, 16], valid_shape=[20, 16], target_memory=pl.Mem.Mat)
        # expected-error@+1 {{pl.tile.matmul_bias: 'lhs' must be a tile in pl.Mem.Left or pl.Mem.Mat, got pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec]; load it with target_memory=pl.Mem.Mat}}
        c0 = pl.tile.matmul_bias(v, b, bias_row)
        # expected-error@+1 {{pl.tile.matmul_bias: 'rhs' dtype pl.INT8 must match 'lhs' dtype pl.FP16}}
        c1 = pl.tile.matmul_bias(a, b8, bias_row)
        # expected-error@+1 {{pl.tile.matmul_bias: 'rhs' shape [16, 16] does not fit 'lhs' shape [16, 32]: lhs dim 1 and rhs dim 0 (K) must be equal}}
        c2 = pl.tile.matmul_bias(a, bk, bias_row)
        # expected-error@+1 {{pl.tile.matmul_bias: 'bias' must have shape [1, N] (one row, added to every row of the product), got pl.Tile[[2, 16], pl.FP32, pl.Mem.Mat]}}
        c3 = pl.tile.matmul_bias(a, b, bias_two)
        # expected-error@+1 {{pl.tile.matmul_bias: 'bias' must have the accumulator dtype pl.FP32 (for pl.FP16 inputs), got pl.INT32}}
        c4 = pl.tile.matmul_bias(a, b, bias_i)
        # expected-error@+1 {{pl.tile.matmul_bias: 'bias' valid columns (8) must cover the product's valid N (16)}}
        c5 = pl.tile.matmul_bias(a, b, bias_narrow)
        # expected-error@+1 {{pl.tile.matmul_bias: 'bias' shape [1, 8] must have the product's N = rhs dim 1 ([32, 16])}}
        c6 = pl.tile.matmul_bias(a, b, bias_short)
        # expected-error@+1 {{pl.tile.matmul_bias: 'rhs' valid rows (20) must cover 'lhs' valid K (32)}}
        c7 = pl.tile.matmul_bias(a, b_narrow, bias_row)
        # expected-error@+1 {{pl.move: cannot move a tile from pl.Mem.Vec to pl.Mem.Bias}}
        vb = pl.move(v, target_memory=pl.Mem.Bias)
