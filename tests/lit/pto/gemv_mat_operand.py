# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s
# pl.tile.gemv on Mat operands, as PyPTO's st tests (test_gemv.py) call it: the CPU runs it, but the
# move to Left / Right that PyPTO's AutoTileMatmulL0 inserts has no ptodist counterpart yet, so the
# PTO emitter names it instead of writing a cube op on L1 buffers.
import pypto.language as pl


@pl.program
class OnMat:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[1, 128], pl.FP32],
        b: pl.Tensor[[128, 32], pl.FP32],
        y: pl.Out[pl.Tensor[[1, 32], pl.FP32]],
    ):
        a_mat = pl.load(a, [0, 0], [1, 128], target_memory=pl.Mem.Mat)
        b_l0 = pl.move(pl.load(b, [0, 0], [128, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        # CHECK: gemv_mat_operand.py:[[@LINE+1]]:{{[0-9]+}}: error: pl.tile.gemv: 'lhs' in pl.Mem.Mat has no PTO lowering yet (PyPTO's AutoTileMatmulL0 moves it); move it first with pl.move(lhs, target_memory=pl.Mem.Left)
        c = pl.tile.gemv(a_mat, b_l0)
        y = pl.store(c, [0, 0], y)
        return y
