# RUN: ptodist check %s --verify-diagnostics
# load: GM loads land in Vec or Mat; Left/Right/Acc come through pl.move.
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
        # expected-error@+1 {{pl.load: 'target_memory' must be pl.Mem.Vec or pl.Mem.Mat (GM loads land in UB or L1), got pl.Mem.Left; load into pl.Mem.Mat and use pl.move(t, target_memory=pl.Mem.Left)}}
        a = pl.load(h, [0, 0], [4, 16], target_memory=pl.Mem.Left)
