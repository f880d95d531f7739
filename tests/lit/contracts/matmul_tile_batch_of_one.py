# RUN: ptodist check %s --verify-diagnostics
# A tile matmul reads a batch-of-one operand ([1, .., 1, R, C]) as its trailing [R, C] and gives the 2-D
# product (PyPTO's FlattenTileNdTo2D); a batch of more is an error at the operand.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 32], pl.FP16],
        w: pl.Tensor[[4, 16, 32], pl.FP16],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        a = pl.move(pl.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        wm = pl.load(w, [1, 0, 0], [1, 16, 32], target_memory=pl.Mem.Mat)
        b = pl.move(pl.tile.transpose_view(wm), target_memory=pl.Mem.Right)
        acc: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.matmul(a, b)
        acc = pl.matmul_acc(acc, a, b)
        w2 = pl.load(w, [0, 0, 0], [2, 16, 32], target_memory=pl.Mem.Mat)
        b2 = pl.move(pl.tile.transpose_view(w2), target_memory=pl.Mem.Right)
        # expected-error@+1 {{pl.matmul: 'rhs' must be a 2-D tile (or [1, .., 1, R, C], a batch of one), got pl.Tile[[2, 32, 16], pl.FP16, pl.Mem.Right]}}
        bad = pl.matmul(a, b2)
        y = pl.store(acc, [0, 0], y)
        return y
