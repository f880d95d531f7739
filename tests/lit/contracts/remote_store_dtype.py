# RUN: ptodist check %s --verify-diagnostics
# remote_store: the tile's dtype is the window's.
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

        t = pl.load(h, [0, 0], [1, SIZE])
        # expected-error@+1 {{pld.tile.remote_store: 'src_tile' dtype pl.FP16 must match 'target' dtype pl.FP32}}
        pld.tile.remote_store(t, target=dst, peer=peer, offsets=[0, 0])
