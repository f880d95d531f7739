# RUN: ptodist check %s --verify-diagnostics
# move: only the hardware's data paths (in an InCore kernel, also between its cube and vector halves).
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
        a = pl.load(x, [0, 0], [4, SIZE])
        # expected-error@+1 {{pl.move: cannot move a tile from pl.Mem.Vec to pl.Mem.Acc}}
        b = pl.move(a, target_memory=pl.Mem.Acc)
