# RUN: ptodist check %s --verify-diagnostics
# add: both tiles have one shape.
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
        a = pl.load(x, [0, 0], [4, SIZE])
        b = pl.load(x, [0, 0], [2, SIZE])
        # expected-error@+1 {{pl.add: 'rhs' shape [2, SIZE] must match 'lhs' shape [4, SIZE]}}
        c = pl.add(a, b)
