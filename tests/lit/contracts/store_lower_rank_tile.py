# RUN: ptodist check %s --verify-diagnostics
# store: a tile of lower rank lands in the trailing dims of the tensor (PyPTO's leading-1s partition:
# a [1, SIZE] row into out[0, j, :] of [1, NR, SIZE]); a tile of higher rank is an error, and the
# bounds are checked on the padded region.
import pypto.language as pl

SIZE = 64


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        src: pl.Tensor[[4, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 4, SIZE], pl.FP32]],
        flat: pl.Out[pl.Tensor[[SIZE], pl.FP32]],
    ):
        row = pl.load(src, [1, 0], [1, SIZE])
        out = pl.store(row, [0, 3, 0], out)
        # expected-error@+1 {{pl.store: region [4, 5) in dim 1 is out of bounds of 'output_tensor' (size 4)}}
        out = pl.store(row, [0, 4, 0], out)
        # expected-error@+1 {{pl.store: 'tile' rank 2 is higher than 'output_tensor' rank 1}}
        flat = pl.store(row, [0], flat)
