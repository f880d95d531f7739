# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: the source of put_async may itself be a window (DistributedTensor), not only a GM tensor.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 512


@pl.program
class PutAsyncWindowSrc:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pld.DistributedTensor[[1, SIZE], pl.BF16],
        dst: pld.DistributedTensor[[1, SIZE], pl.BF16],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        sess = pld.system.async_session(sync_id=3, block_bytes=65536)
        evt = pld.tensor.put_async(dst=dst, peer=peer, src=src, session=sess)
        pld.system.wait_async_event(event=evt, session=sess)
