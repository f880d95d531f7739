# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: put_async of a [1, N] row of 2-D tensors (offsets + shape given together) is logically 1-D.
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 4
COLS = 256


@pl.program
class PutAsyncRowOf2D:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP16],
        dst: pld.DistributedTensor[[ROWS, COLS], pl.FP16],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        sess = pld.system.async_session()
        evt = pld.tensor.put_async(dst, peer, x, sess, dst_offsets=[2, 0], src_offsets=[1, 0],
                                   shape=[1, COLS])
        pld.system.wait_async_event(evt, sess)
        pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
