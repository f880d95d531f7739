# RUN: ptodist compile %s -p specialize --emit=tile-ir | FileCheck %s
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# specialize substitutes a local bound once to a constant (`cols = a.shape[1]`) where its assignment
# dominates: the rest of its block and the blocks nested there. A name bound twice or a parameter keeps
# the variable. PyPTO's pl.AtomicType is the same enum as pld.AtomicType.
import pypto.language as pl


@pl.program
class Locals:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[4, 64], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[4, 64], pl.FP32]],
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        # CHECK: cols = 64
        # PTO-NOT: error
        # CHECK-NEXT: t = pl.load(a, [0, 0], [4, 64])
        cols = a.shape[1]
        t = pl.load(a, [0, 0], [4, cols])
        # Bound twice: the second value is not the first.
        # CHECK-NEXT: k = 1
        # CHECK-NEXT: k = 2
        # CHECK-NEXT: r = k
        k = 1
        k = 2
        r = k
        # A parameter rebound once keeps its name (the loop may not run).
        # CHECK: for i in pl.range(n):
        # CHECK-NEXT: half = 32
        # CHECK-NEXT: n = 2
        # CHECK-NEXT: u = pl.load(a, [0, 0], [4, 32])
        # CHECK-NEXT: v = n
        for i in pl.range(n):
            half = cols // 2
            n = 2
            u = pl.load(a, [0, 0], [4, half])
            v = n
        # PTO: pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=64,
        out = pl.store(t, [0, 0], out, atomic=pl.AtomicType.Add)
        return out
