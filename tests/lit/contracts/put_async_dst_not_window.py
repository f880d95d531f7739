# RUN: ptodist check %s --verify-diagnostics
# put_async: dst must be window-backed.
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
        sess = pld.system.async_session()
        # expected-error@+1 {{pld.tensor.put_async: 'dst' must be a pld.DistributedTensor (window-backed, so the DMA engine can write the peer's copy), got pl.Tensor[[4, SIZE], pl.FP32]}}
        evt = pld.tensor.put_async(x, peer, x, sess)
