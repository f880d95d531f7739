# RUN: ptodist check %s --verify-diagnostics
# async_session: at most one session per kernel (note at the first).
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

        # expected-note@+1 {{the first async session is created here}}
        first = pld.system.async_session(sync_id=0)
        # expected-error@+1 {{pld.system.async_session: kernel 'kernel' already has an async session}}
        second = pld.system.async_session(sync_id=1)
        evt = pld.tensor.put_async(dst, peer, x, first)
        pld.system.wait_async_event(evt, first)
