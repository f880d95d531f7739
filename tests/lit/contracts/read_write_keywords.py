# RUN: ptodist check %s --verify-diagnostics
# pl.read(src, offset) and pl.write(dst, offset, value) take PyPTO's parameter names, positionally or
# by keyword; pl.tensor.read/write keep PyPTO's (tensor, indices) names. One integer as `offset` is
# one index, as PyPTO's IntLike offset.
import pypto.language as pl


@pl.program
class ReadWrite:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(
        self,
        x: pl.Tensor[[1, 8], pl.INT32],
        y: pl.Out[pl.Tensor[[1, 8], pl.INT32]],
        z: pl.InOut[pl.Tensor[[8], pl.INT32]],
    ) -> pl.Tensor[[1, 8], pl.INT32]:
        one = pl.read(z, 3)
        pl.write(z, offset=4, value=one)
        # expected-error@+1 {{pl.read: 'offset' must be a list of 2 integers (the rank of 'src'), got a list of 1 element}}
        two = pl.read(x, 1)
        a = pl.read(x, [0, 0])
        b = pl.read(src=x, offset=[0, 1])
        c = pl.tensor.read(tensor=x, indices=[0, 2])
        pl.write(y, [0, 0], a)
        pl.write(dst=y, offset=[0, 1], value=b)
        pl.tensor.write(tensor=y, indices=[0, 2], value=c)
        # expected-error@+1 {{pl.read: unexpected keyword argument 'tensor'}}
        d = pl.read(tensor=x, offset=[0, 0])
        # expected-error@+1 {{pl.write: unexpected keyword argument 'offsets'}}
        pl.write(y, offsets=[0, 0], value=a)
        # expected-error@+1 {{pl.read: region [8, 9) in dim 1 is out of bounds of 'src' (size 8)}}
        e = pl.read(x, [0, 8])
        # expected-error@+1 {{pl.tensor.write: region [8, 9) in dim 1 is out of bounds of 'tensor' (size 8)}}
        pl.tensor.write(y, [0, 8], a)
        return y
