# RUN: ptodist compile %s --emit=ir | FileCheck %s
# `A, B = e1, e2` binds constants as `A = e1` and `B = e2` would, every right side evaluated before any
# name is bound, at module level and in a factory (tuple_constant_errors.py:
# the right sides that leave the names to host Python).
import pypto.language as pl

M, N = 8, 2 * 8
# CHECK: M = 8
# CHECK-NEXT: N = 16
# CHECK-NEXT: X = N
# CHECK-NEXT: Y = M
X, Y = N, M


# CHECK: def build(rows=4):
def build(rows=4):
    # CHECK: R = rows
    # CHECK-NEXT: C = X
    R, C = rows, X

    @pl.program
    class Tuples:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[R, C], pl.FP32], o: pl.Out[pl.Tensor[[M, N], pl.FP32]]):
            t = pl.load(a, [0, 0], [Y, X])
            o = pl.store(t, [0, 0], o)

    return Tuples
