# RUN: ptodist check %s --verify-diagnostics
# Constant scalar expressions fold as Python computes them, on 64-bit integers: what Python raises,
# and an integer that does not fit in 64 bits, is an error at the expression (never a wrapped value, a
# trap or a hang); a branch that `and`, `or` or a conditional does not take is never evaluated.
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size):
    @pl.program
    class Constants:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(self, x: pl.Tensor[[1, 8], pl.INT64], y: pl.Out[pl.Tensor[[1, 8], pl.INT64]]) -> pl.Tensor[[1, 8], pl.INT64]:
            # expected-error@+1 {{integer overflow: 1 << 100 does not fit in 64 bits in a constant expression}}
            a = 1 << 100
            # expected-error@+1 {{integer overflow: 2 ** 9223372036854775807 does not fit in 64 bits}}
            b = 2 ** 9223372036854775807
            # expected-error@+1 {{integer overflow: -9223372036854775808 // -1 does not fit in 64 bits}}
            c = (-9223372036854775807 - 1) // -1
            # expected-error@+1 {{integer overflow: 9223372036854775807 + 1 does not fit in 64 bits}}
            d = 9223372036854775807 + 1
            # expected-error@+1 {{division by zero in a constant expression}}
            e = 7 // 0
            # expected-error@+1 {{modulo by zero in a constant expression}}
            f = 7.5 % 0
            # expected-error@+1 {{negative shift count in a constant expression}}
            g = 1 >> -1
            # expected-error@+1 {{0.0 cannot be raised to a negative power in a constant expression}}
            h = 0 ** -1
            # expected-error@+1 {{a negative number raised to a fractional power is complex}}
            i = (-8.0) ** 0.5
            # Defined results: Python's, no error.
            l = (-9223372036854775807 - 1) % -1
            m = 1 << 62
            n = 1 ** 9223372036854775807
            o = (-1) ** 9223372036854775807
            p = 0 and 7 // 0
            q = 1 or 7 // 0
            r = (7 // 0) if False else 3
            s = -5 >> 100
            t = 2 ** -1
            pl.write(y, [0, 1], 7 // 2)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[1, 8], pl.INT64], y: pl.Out[pl.Tensor[[1, 8], pl.INT64]]) -> pl.Tensor[[1, 8], pl.INT64]:
            y = self.kernel(x, y)
            return y

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[world_size, 1, 8], pl.INT64], y: pl.Out[pl.Tensor[[world_size, 1, 8], pl.INT64]]):
            for r in pl.range(pld.world_size()):
                self.chip(x[r], y[r], device=r)

    return Constants
