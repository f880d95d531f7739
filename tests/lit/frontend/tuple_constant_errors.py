# RUN: ptodist check %s --verify-diagnostics
# `A, B = ...` whose right side is not a tuple of as many constant expressions is host Python: each
# name is reported where a kernel uses it.
import pypto.language as pl

P, Q = 1, len("ab")
S, T = 1, 2, 3
U, V = divmod(7, 2)


@pl.program
class Tuples:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[4, 16], pl.FP32]):
        # expected-error@+1 {{'Q' is assigned a value that is not a constant expression (line 6)}}
        t = pl.load(a, [0, 0], [1, Q])
        # expected-error@+1 {{'T' is assigned a value that is not a constant expression (line 7)}}
        u = pl.load(a, [0, 0], [1, T])
        # expected-error@+1 {{'U' is assigned a value that is not a constant expression (line 8)}}
        w = pl.load(a, [0, 0], [1, U])
