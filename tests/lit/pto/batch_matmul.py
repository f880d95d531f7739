# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s
# pl.batch_matmul has no PTO form of its own: PyPTO's FlattenTileNdTo2D unrolls it into one 2-D
# tile.matmul per batch index before its backend runs, a pass ptodist does not have yet. The emitter
# says so at the call instead of writing a cube op on N-D tiles.
import pypto.language as pl


@pl.program
class Batched:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[2, 16, 32], pl.FP16],
        b: pl.Tensor[[2, 32, 16], pl.FP16],
        y: pl.Out[pl.Tensor[[2, 16, 16], pl.FP32]],
    ):
        ta = pl.load(a, [0, 0, 0], [2, 16, 32], target_memory=pl.Mem.Mat)
        tb = pl.load(b, [0, 0, 0], [2, 32, 16], target_memory=pl.Mem.Mat)
        # CHECK: batch_matmul.py:[[@LINE+1]]:{{[0-9]+}}: error: pl.batch_matmul: has no PTO lowering yet (PyPTO's FlattenTileNdTo2D unrolls it into one 2-D pl.tile.matmul per batch index); write those matmuls on 2-D tiles
        c = pl.batch_matmul(ta, tb)
        y = pl.store(c, [0, 0, 0], y)
        return y
