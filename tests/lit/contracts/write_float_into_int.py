# RUN: ptodist check %s --verify-diagnostics
# pl.write never narrows a float into an integer tensor silently (PyPTO's tensor.write requires the
# value's dtype to match the tensor's); an integer or a bool into it is fine, as is an int into floats.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class WriteFloat:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.INT64]]) -> pl.Tensor[[1, 8], pl.INT64]:
        f = pl.read(x, [0, 0])
        # expected-error@+1 {{'value' is pl.Scalar[pl.FP32] but 'dst' holds pl.INT64; a float is not narrowed to an integer implicitly}}
        pl.write(y, [0, 0], 2.5)
        # expected-error@+1 {{'value' is pl.Scalar[pl.FP32] but 'dst' holds pl.INT64}}
        pl.write(y, [0, 1], f * 2)
        pl.write(y, [0, 2], 7 // 2)
        pl.write(y, [0, 3], f > 0)
        pl.write(x, [0, 1], 3)
        return y
