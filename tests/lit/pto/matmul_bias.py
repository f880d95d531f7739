# RUN: ptodist compile %s --emit=pto | FileCheck %s
# pl.tile.matmul_bias as PyPTO's backend writes it: the bias row moved from L1 into the bias table
# (loc=bias, one row), then pto.tmatmul.bias ins(lhs, rhs, bias) outs(acc). An operand still in Mat:
# matmul_bias_mat_operand.py.
import pypto.language as pl


@pl.program
class Biased:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[16, 32], pl.FP16],
        b: pl.Tensor[[32, 16], pl.FP16],
        bias: pl.Tensor[[1, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        a_mat = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        b_mat = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        bias_mat = pl.load(bias, [0, 0], [1, 16], target_memory=pl.Mem.Mat)
        a_l0 = pl.move(a_mat, target_memory=pl.Mem.Left)
        b_l0 = pl.move(b_mat, target_memory=pl.Mem.Right)
        bias_bt = pl.move(bias_mat, target_memory=pl.Mem.Bias)
        c = pl.tile.matmul_bias(a_l0, b_l0, bias_bt)
        y = pl.store(c, [0, 0], y)
        return y


# CHECK: %bias_bt = pto.alloc_tile addr = {{.*}} : !pto.tile_buf<loc=bias, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, blayout=row_major, slayout=none_box,
# CHECK: pto.tmov ins(%bias_mat : !pto.tile_buf<loc=mat, dtype=f32, rows=1, cols=16, {{.*}}>) outs(%bias_bt : !pto.tile_buf<loc=bias,
# CHECK-NEXT: pto.tmatmul.bias ins(%a_l0, %b_l0, %bias_bt : !pto.tile_buf<loc=left, {{.*}}>, !pto.tile_buf<loc=right, {{.*}}>, !pto.tile_buf<loc=bias, {{.*}}>) outs(%c : !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16,
# CHECK-NEXT: %y_pview = pto.partition_view
# CHECK-NEXT: pto.tstore ins(%c :
