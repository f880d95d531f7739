# RUN: ptodist check %s --verify-diagnostics
# call binding: too many positional arguments.
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
        # expected-error@+1 {{pl.load: takes at most 6 arguments, got 7}}
        a = pl.load(x, [0, 0], [4, SIZE], None, pl.Mem.Vec, False, 1)
