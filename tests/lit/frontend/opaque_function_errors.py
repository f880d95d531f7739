# RUN: ptodist check %s --verify-diagnostics
# An Opaque function (PyPTO's default type) runs only as the orchestration of the InCore scopes it
# outlines: one with none (only tile code, or a pl.at of another level) is an error at its decorator.
import pypto.language as pl

N = 16


@pl.program
class Errors:
    # expected-error@+1 {{'plain' is an Opaque function (PyPTO's default type) with no 'with pl.at(level=pl.Level.CORE_GROUP)' or pl.spmd scope to outline; ptodist runs an Opaque function only as the orchestration of such scopes: use @pl.function(type=pl.FunctionType.InCore|AIC|AIV|Orchestration)}}
    @pl.function
    def plain(self, x: pl.Tensor[[4, N], pl.FP32]):
        t = pl.load(x, [0, 0], [1, N])

    # A CORE_GROUP named outside a pl.at call does not make an InCore scope.
    # expected-error@+1 {{'other' is an Opaque function}}
    @pl.function(type=pl.FunctionType.Opaque)
    def other(self, x: pl.Tensor[[4, N], pl.FP32]):
        level = pl.Level.CORE_GROUP
        with pl.at(level=pl.Level.CHIP):
            pass
