# RUN: ptodist compile %s --emit=pto | FileCheck %s
# The GEMV family as PyPTO's backend writes it (MakeGemvCodegenPTO): pto.tgemv ins(lhs, rhs),
# pto.tgemv.bias ins(lhs, rhs, bias), pto.tgemv.acc ins(acc, lhs, rhs), each outs(a [16, N] acc tile
# valid over one row: valid_row 1), an acc_phase other than "unspecified" as an accPhase attribute after them.
# Operands still in Mat: gemv_mat_operand.py.
import pypto.language as pl


@pl.program
class VectorProducts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[1, 128], pl.FP16],
        b: pl.Tensor[[128, 32], pl.FP16],
        bias: pl.Tensor[[1, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[1, 32], pl.FP32]],
        y_acc: pl.Out[pl.Tensor[[1, 32], pl.FP32]],
    ):
        a_l0 = pl.move(pl.load(a, [0, 0], [1, 128], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        b_l0 = pl.move(pl.load(b, [0, 0], [128, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        bias_bt = pl.move(pl.load(bias, [0, 0], [1, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Bias)
        c = pl.tile.gemv_bias(a_l0, b_l0, bias_bt)
        y = pl.store(c, [0, 0], y)
        acc = pl.tile.gemv(a_l0, b_l0, acc_phase="partial")
        acc = pl.tile.gemv_acc(acc, a_l0, b_l0, acc_phase="final")
        y_acc = pl.store(acc, [0, 0], y_acc)
        return y, y_acc


# CHECK: %c = pto.alloc_tile addr = {{.*}} valid_row = %c1 valid_col = %c32 : !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=32, v_row=?, v_col=?,
# CHECK: pto.tgemv.bias ins(%a_l0, %b_l0, %bias_bt : !pto.tile_buf<loc=left, dtype=f16, rows=1, cols=128, {{.*}}>, !pto.tile_buf<loc=right, {{.*}}>, !pto.tile_buf<loc=bias, {{.*}}>) outs(%c : !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=32, {{[^>]*}}>){{$}}
# CHECK: pto.tgemv ins(%a_l0, %b_l0 : {{.*}}) outs(%acc : !pto.tile_buf<loc=acc, {{[^>]*}}>) {accPhase = #pto<acc_phase partial>}
# CHECK-NEXT: pto.tgemv.acc ins(%acc, %a_l0, %b_l0 : !pto.tile_buf<loc=acc, {{.*}}>, !pto.tile_buf<loc=left, {{.*}}>, !pto.tile_buf<loc=right, {{.*}}>) outs(%acc : !pto.tile_buf<loc=acc, {{[^>]*}}>) {accPhase = #pto<acc_phase final>}
