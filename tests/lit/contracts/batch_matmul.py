# RUN: ptodist check %s --verify-diagnostics
# pl.batch_matmul: tiles of at least 2 dims (lhs in Left or Mat, rhs in Right or Mat), the same cube
# input dtype, equal K, batch dims that broadcast; GM tensors take pl.matmul, as in PyPTO.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        h: pl.Tensor[[3, 16, 32], pl.FP16],
        w: pl.Tensor[[3, 32, 16], pl.FP16],
        w8: pl.Tensor[[3, 32, 16], pl.INT8],
    ):
        a = pl.load(h, [0, 0, 0], [3, 16, 32], target_memory=pl.Mem.Mat)
        b = pl.load(w, [0, 0, 0], [3, 32, 16], target_memory=pl.Mem.Mat)
        b2 = pl.load(w, [0, 0, 0], [2, 32, 16], target_memory=pl.Mem.Mat)
        bk = pl.load(w, [0, 0, 0], [3, 16, 16], target_memory=pl.Mem.Mat)
        b8 = pl.load(w8, [0, 0, 0], [3, 32, 16], target_memory=pl.Mem.Mat)
        v = pl.load(h, [0, 0, 0], [3, 16, 32])
        # expected-error@+1 {{pl.batch_matmul: 'lhs' must be a tile in pl.Mem.Left or pl.Mem.Mat, got pl.Tile[[3, 16, 32], pl.FP16, pl.Mem.Vec]}}
        c0 = pl.batch_matmul(v, b)
        # expected-error@+1 {{pl.batch_matmul: 'rhs' dtype pl.INT8 must match 'lhs' dtype pl.FP16}}
        c1 = pl.batch_matmul(a, b8)
        # expected-error@+1 {{pl.batch_matmul: 'rhs' shape [3, 16, 16] does not fit 'lhs' shape [3, 16, 32]}}
        c2 = pl.batch_matmul(a, bk)
        # expected-error@+1 {{pl.tile.batch_matmul: the batch dims of 'lhs' shape [3, 16, 32] and 'rhs' shape [2, 32, 16] do not broadcast}}
        c3 = pl.tile.batch_matmul(a, b2)
        # expected-error@+1 {{pl.batch_matmul: 'lhs' must be a tile}}
        c4 = pl.batch_matmul(h, w)
