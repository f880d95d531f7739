# RUN: ptodist compile %s --emit=pto | FileCheck %s
# matmul_acc's literal init_cond picks the PTO form: True overwrites (pto.tmatmul of lhs and rhs),
# False and no init_cond accumulate (pto.tmatmul.acc with the accumulator in ins).
import pypto.language as pl


@pl.program
class InitCond:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        lhs = pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        rhs = pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        acc = pl.create_tile([16, 16], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        # CHECK: pto.tmatmul ins(%lhs, %rhs :
        acc = pl.tile.matmul_acc(acc, lhs, rhs, init_cond=True)
        # CHECK: pto.tmatmul.acc ins(%acc, %lhs, %rhs :
        acc = pl.matmul_acc(acc, lhs, rhs, init_cond=False)
        y = pl.store(acc, [0, 0], y)
        return y
