# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: two events outstanding at once on one session, both drained before the notify.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class TwoEventsDrained:
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
        first = pld.tensor.put_async(dst, peer, x, sess)
        second = pld.tensor.put_async(dst, (peer + 1) % pld.nranks(ctx), x, sess)
        pld.system.wait_async_event(second, sess)
        pld.system.wait_async_event(first, sess)
        pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
