# RUN: ptodist check %s --verify-diagnostics
# put: atomic add only for FP32/FP16/BF16/INT32/INT16/INT8 (not the unsigned types).
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
        b8: pl.Tensor[[4, SIZE], pl.UINT8],
        w8: pld.DistributedTensor[[4, SIZE], pl.UINT8],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        # expected-error@+1 {{pld.tensor.put: 'atomic=pld.AtomicType.Add' supports pl.FP32, pl.FP16, pl.BF16, pl.INT32, pl.INT16 and pl.INT8, got pl.UINT8}}
        pld.tensor.put(w8, peer, b8, atomic=pld.AtomicType.Add)
