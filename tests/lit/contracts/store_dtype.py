# RUN: ptodist check %s --verify-diagnostics
# store: the tile's dtype is the tensor's.
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
        a = pl.load(h, [0, 0], [4, SIZE])
        # expected-error@+1 {{pl.store: 'tile' dtype pl.FP16 must match 'output_tensor' dtype pl.FP32; use pl.cast first}}
        x = pl.store(a, [0, 0], x)
