# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s
# pl.tile.matmul_bias on Mat operands, as PyPTO's st tests call it: the CPU runs it, but PyPTO's
# AutoTileMatmulL0 (which moves each operand to Left / Right / Bias, tiling it to fit) has no ptodist
# counterpart yet, so the PTO emitter names the move instead of writing a cube op on L1 buffers.
import pypto.language as pl


@pl.program
class OnMat:
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
        # CHECK: matmul_bias_mat_operand.py:[[@LINE+1]]:{{[0-9]+}}: error: pl.tile.matmul_bias: 'lhs' in pl.Mem.Mat has no PTO lowering yet (PyPTO's AutoTileMatmulL0 moves it); move it first with pl.move(lhs, target_memory=pl.Mem.Left)
        c = pl.tile.matmul_bias(a_mat, b_mat, bias_mat)
        y = pl.store(c, [0, 0], y)
        return y
