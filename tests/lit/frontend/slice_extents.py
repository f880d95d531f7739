# RUN: ptodist compile %s --emit=ir | FileCheck %s
# A slice `x[a:b]` has extent `b - a`, folded as PyPTO's simplifier folds it when b is `a + n` (either
# order), so `x[t0:t0 + T]` keeps the static width T whatever t0 is; other bounds keep `b - a`.
import pypto.language as pl

T = 4
K = 8


@pl.program
class Slices:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self, x: pl.Tensor[[16, 32], pl.FP32], y: pl.Out[pl.Tensor[[16, 32], pl.FP32]], t0: pl.Scalar[pl.INT64]
    ):
        k0 = t0 * 2
        # CHECK: a = pl.slice(x, [T, K], [t0, k0])
        a = x[t0 : t0 + T, k0 : K + k0]
        # CHECK-NEXT: b = pl.slice(x, [12 - t0, 32], [t0, 0])
        b = x[t0:12, :]
        # CHECK-NEXT: y = pl.assemble(y, a, [t0, k0])
        y[t0 : t0 + T, k0 : k0 + K] = a
