# RUN: ptodist check %s --verify-diagnostics
# exp: a float tile.
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
        a = pl.load(signal, [0, 0], [1, 4])
        # expected-error@+1 {{pl.exp: 'input' must have a float dtype (pl.FP32, pl.FP16 or pl.BF16), got pl.INT32}}
        b = pl.exp(a)
