# RUN: ptodist check %s --verify-diagnostics
# matmul_acc: the accumulator has the product's type.
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
        a = pl.load(h, [0, 0], [4, 4], target_memory=pl.Mem.Mat)
        b = pl.load(h, [0, 0], [4, 8], target_memory=pl.Mem.Mat)
        lhs = pl.move(a, target_memory=pl.Mem.Left)
        rhs = pl.move(b, target_memory=pl.Mem.Right)
        acc = pl.create_tile([4, 16], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        # expected-error@+1 {{pl.matmul_acc: 'acc' must be pl.Tile[[4, 8], pl.FP32, pl.Mem.Acc] (the product's type), got pl.Tile[[4, 16], pl.FP32, pl.Mem.Acc]}}
        acc = pl.matmul_acc(acc, lhs, rhs)
