# A module-level program beside a factory whose dtype only a Python caller gives (PyPTO's
# test_l3_host_tensor_allreduce.py has both).
import pypto.language as pl


@pl.program
class Fixed:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 64])
        y = pl.store(t, [0, 0], y)
        return y


def build(*, dtype):
    @pl.program
    class Typed:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[1, 64], dtype], y: pl.Out[pl.Tensor[[1, 64], dtype]]) -> pl.Tensor[[1, 64], dtype]:
            t = pl.load(x, [0, 0], [1, 64])
            y = pl.store(t, [0, 0], y)
            return y

    return Typed
