# RUN: ptodist check %s --verify-diagnostics
# notify: the target is an INT32 signal in a window.
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
        # expected-error@+1 {{pld.system.notify: 'target' must be a pld.DistributedTensor of pl.INT32 (a signal array in a window), got pld.DistributedTensor[[4, SIZE], pl.FP32]}}
        pld.system.notify(dst, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
