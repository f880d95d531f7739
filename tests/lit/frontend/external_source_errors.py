# RUN: ptodist check %s --verify-diagnostics
# A kernel given as hand-written C++ (`@pl.function(type=AIV, external_source=path)`, body a bare
# `...`, PyPTO's test_external_kernel) has nothing the CPU runtime can run: the error is at the
# keyword, not at the `...` body. A `...` anywhere else is still an error of its own.
import pypto.language as pl

N = 16


@pl.program
class Errors:
    # expected-error@+1 {{@pl.function(external_source=...) kernels (hand-written C++ for the device) are not supported: ptodist runs kernels written in the language}}
    @pl.function(type=pl.FunctionType.AIV, external_source="kernels/write.cpp")
    def external(self, out: pl.InOut[pl.Tensor[[N], pl.FP32]]) -> pl.Tensor[[N], pl.FP32]: ...

    @pl.function(type=pl.FunctionType.InCore)
    def body_ellipsis(self, x: pl.Tensor[[N], pl.FP32]):
        # expected-error@+1 {{'...' is not supported in expressions}}
        y = ...
