# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: issue, compute, drain, notify, wait in one straight line is the canonical order.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class StraightLine:
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
        t = pl.load(x, [0, 0], [1, SIZE])
        t = pl.add(t, t)
        pld.system.wait_async_event(evt, sess)
        pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
