# RUN: ptodist compile %s --emit=pto | FileCheck %s
# RUN: ptodist run %s --entry orchestrator --out-dir %t && %numpy %S/../ops/Inputs/npy.py check %t out "np.concatenate([np.full((8, 16), 3, np.float32), np.zeros((8, 16), np.float32)])"
# REQUIRES: numpy
# pl.get_subblock_idx (PyPTO's tile.get_subblock_idx): the AIV lane of a core group, pto.get_subblock_idx
# (an i64, as pto.get_block_idx). The CPU runtime runs one vector lane, lane 0, so the kernel writes the
# first half of `out` only.
import pypto.language as pl


@pl.program
class Lanes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        # CHECK: %[[LANE:[a-z0-9_]+]] = pto.get_subblock_idx
        lane = pl.get_subblock_idx()
        t = pl.full([8, 16], dtype=pl.FP32, value=3.0)
        # CHECK: arith.muli
        out = pl.store(t, [lane * 8, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.kernel(out)
        return out
