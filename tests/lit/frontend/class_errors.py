# RUN: ptodist check %s --verify-diagnostics
# Class style: methods take self, name each other through self, and say their level.
import pypto.language as pl


@pl.program
class P:
    """Docstrings and helper methods without @pl.function are allowed."""

    def helper(self):
        return 1

    @pl.function(type=pl.FunctionType.InCore)
    # expected-error@+1 {{the first parameter of method 'k' must be 'self'}}
    def k(x: pl.Tensor[[8], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def o(self, x: pl.Tensor[[8], pl.FP32]):
        # expected-error@+1 {{program has no function 'kernl'}}
        self.kernl(x)
        # expected-error@+1 {{methods of a @pl.program class are named through self: 'self.o'}}
        o(x)

    # expected-error@+1 {{cannot tell the level of 'q'}}
    @pl.function(type=pl.FunctionType.Bogus)
    def q(self):
        pass

    # expected-error@+1 {{unsupported statement in @pl.program class 'P'}}
    x = 1
