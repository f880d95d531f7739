# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s
# The tensor-level forms of the elementwise ops run on the CPU runtime only: compile names the call.
import pypto.language as pl


@pl.program
class TensorLevel:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    ) -> pl.Tensor[[1, 64], pl.FP32]:
        # CHECK: tensor_level.py:[[@LINE+1]]:18: error: pl.tensor.add: the tensor-level form (GM tensors in, a new tensor out) has no PTO lowering yet; load the operands into tiles with pl.load and compute on tiles
        scaled = pl.tensor.add(x, x)
        t = pl.load(scaled, [0, 0], [1, 64])
        return pl.store(t, [0, 0], y)
