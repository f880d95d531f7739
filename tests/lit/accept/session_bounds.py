# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: sync_id at its upper bound 7 and the smallest positive block_bytes.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class SessionBounds:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        sess = pld.system.async_session(sync_id=7, block_bytes=1)
        evt = pld.tensor.put_async(dst, peer, x, sess)
        pld.system.wait_async_event(evt, sess)
