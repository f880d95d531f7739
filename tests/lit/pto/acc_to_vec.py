# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s
# A matmul's Acc result read by vector arithmetic (pypto-lib's gate.py epilogue after its split-K loop)
# is a mixed kernel: on a2a3 the cube and vector units are separate cores, and PyPTO splits the kernel
# (ExpandMixedKernel); ptodist names the move that crosses instead of emitting a cube kernel with vector
# ops in it.
import pypto.language as pl


@pl.program
class Mixed:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[16, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        logits = pl.create_tensor([16, 16], dtype=pl.FP32)
        logits = pl.matmul(x, w, b_trans=True, out_dtype=pl.FP32)
        # CHECK: acc_to_vec.py:[[@LINE+1]]:29: error: pl.move: moving an Acc tile to Vec hands a cube result to the vector core; PyPTO splits such a mixed kernel into AIC and AIV kernels (ExpandMixedKernel), which ptodist does not do yet: store the product to GM in one kernel and load it in another
        scaled = pl.maximum(logits, 0.0)
        y = pl.assemble(y, scaled, [0, 0])
        return y
