# RUN: ptodist check %s --verify-diagnostics
# matmul: operands in Left/Right.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, SIZE], pl.FP32],
        h: pl.Tensor[[4, SIZE], pl.FP16],
        dst: pld.DistributedTensor[[4, SIZE], pl.FP32],
        signal: pld.DistributedTensor[[1, 4], pl.INT32],
        flat: pl.Tensor[[SIZE], pl.FP32],
        b8: pl.Tensor[[4, SIZE], pl.INT8],
        w8: pld.DistributedTensor[[4, SIZE], pl.INT8],
    ):
        a = pl.load(h, [0, 0], [4, 16], target_memory=pl.Mem.Mat)
        b = pl.load(h, [0, 0], [4, 16], target_memory=pl.Mem.Mat)
        rhs = pl.move(b, target_memory=pl.Mem.Right)
        # expected-error@+1 {{pl.matmul: 'lhs' must be a tile in pl.Mem.Left, got pl.Tile[[4, 16], pl.FP16, pl.Mem.Mat]; use pl.move(x, target_memory=pl.Mem.Left)}}
        c = pl.matmul(a, rhs)
