# RUN: ptodist check %s --verify-diagnostics
# What the GEMV family rejects, as PyPTO's DeduceTileGemv*Type do: a lhs of more than one row (shape or
# valid region), operands of another dtype or memory, a K that does not fit, an unknown acc_phase, a bias
# of the wrong dtype or rows, and an accumulator that is not what pl.gemv of the operands gives.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 128], pl.FP16],
        w: pl.Tensor[[128, 32], pl.FP16],
        w8: pl.Tensor[[128, 32], pl.INT8],
        bias: pl.Tensor[[2, 32], pl.FP32],
        biasi: pl.Tensor[[1, 32], pl.INT32],
    ):
        a = pl.load(x, [0, 0], [1, 128], target_memory=pl.Mem.Mat)
        a16 = pl.load(x, [0, 0], [16, 128], target_memory=pl.Mem.Mat)
        a16v1 = pl.load(x, [0, 0], [16, 128], valid_shape=[1, 128], target_memory=pl.Mem.Mat)
        av = pl.load(x, [0, 0], [1, 128])
        b = pl.load(w, [0, 0], [128, 32], target_memory=pl.Mem.Mat)
        b8 = pl.load(w8, [0, 0], [128, 32], target_memory=pl.Mem.Mat)
        b64 = pl.load(w, [0, 0], [64, 32], target_memory=pl.Mem.Mat)
        bias_row = pl.load(bias, [0, 0], [1, 32], target_memory=pl.Mem.Mat)
        bias_two = pl.load(bias, [0, 0], [2, 32], target_memory=pl.Mem.Mat)
        bias_i = pl.load(biasi, [0, 0], [1, 32], target_memory=pl.Mem.Mat)
        b_narrow = pl.load(w, [0, 0], [128, 32], valid_shape=[128, 20], target_memory=pl.Mem.Mat)
        # expected-error@+1 {{pl.tile.gemv: 'lhs' must be one row, shape [1, K] with one valid row, got pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat]; use pl.matmul for more rows}}
        c0 = pl.tile.gemv(a16, b)
        # expected-error@+1 {{pl.tile.gemv: 'lhs' must be one row, shape [1, K] with one valid row, got pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat, valid_shape=[1, 128]]; use pl.matmul for more rows}}
        c1 = pl.tile.gemv(a16v1, b)
        # expected-error@+1 {{pl.tile.gemv: 'lhs' must be a tile in pl.Mem.Left or pl.Mem.Mat, got pl.Tile[[1, 128], pl.FP16, pl.Mem.Vec]; load it with target_memory=pl.Mem.Mat}}
        c2 = pl.tile.gemv(av, b)
        # expected-error@+1 {{pl.tile.gemv: 'rhs' dtype pl.INT8 must match 'lhs' dtype pl.FP16}}
        c3 = pl.tile.gemv(a, b8)
        # expected-error@+1 {{pl.tile.gemv: 'rhs' shape [64, 32] does not fit 'lhs' shape [1, 128]: lhs dim 1 and rhs dim 0 (K) must be equal}}
        c4 = pl.tile.gemv(a, b64)
        # expected-error@+1 {{pl.tile.gemv: 'acc_phase' must be 'unspecified', 'partial' or 'final', got "last"}}
        c5 = pl.tile.gemv(a, b, acc_phase="last")
        # expected-error@+1 {{pl.tile.gemv_bias: 'bias' must have shape [1, N] (one row, added to every row of the product), got pl.Tile[[2, 32], pl.FP32, pl.Mem.Mat]}}
        c6 = pl.tile.gemv_bias(a, b, bias_two)
        # expected-error@+1 {{pl.tile.gemv_bias: 'bias' must have the accumulator dtype pl.FP32 (for pl.FP16 inputs), got pl.INT32}}
        c7 = pl.tile.gemv_bias(a, b, bias_i)
        acc = pl.tile.gemv(a, b)
        # expected-error@+1 {{pl.tile.gemv_acc: 'acc' must be the pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc, valid_shape=[1, 32]] that pl.gemv of 'lhs' and 'rhs' gives, got pl.Tile[[1, 32], pl.FP32, pl.Mem.Mat]}}
        c8 = pl.tile.gemv_acc(bias_row, a, b)
        # expected-error@+1 {{pl.tile.gemv_acc: 'acc' must be valid over [1, 20] as the product is, got pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc, valid_shape=[1, 32]]}}
        c9 = pl.tile.gemv_acc(acc, a, b_narrow)
        # expected-error@+1 {{pl.gemv_acc: 'acc' must be a tile}}
        c10 = pl.gemv_acc(x, a, b)
