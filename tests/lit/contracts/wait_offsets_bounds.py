# RUN: ptodist check %s --verify-diagnostics
# wait: the signal cell lies inside the signal array.
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
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        # expected-error@+1 {{pld.system.wait: region [4, 5) in dim 1 is out of bounds of 'signal' (size 4)}}
        pld.system.wait(signal, offsets=[0, 4], expected=1, cmp=pld.WaitCmp.Eq)
