# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: a wait inside a loop whose trip count is a positive constant (1) does drain the event.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class WaitInConstantLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        sess = pld.system.async_session()
        evt = pld.tensor.put_async(dst, peer, x, sess)
        for i in pl.range(1):
            pld.system.wait_async_event(evt, sess)
        pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
