# A name first assigned in a loop that may run zero times and read after it takes PyPTO's zero-trip
# value (its ConvertToSSA): an Out/InOut parameter of its type, else the first variable of its type
# defined before the loop, assigned just before the loop. So the kernel ending `for ...: out =
# pl.store(..., c)` / `return out` returns `c` when its loop does not run. Golden from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t/full %t/empty
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/a.npy "np.arange(8*16, dtype=np.float32).reshape(8, 16)"
# RUN: cp %t/a.npy %t/full/a.npy && cp %t/a.npy %t/empty/a.npy
# RUN: ptodist run %s --entry full --ranks 1 --in a=%t/a.npy --out-dir %t/full
# RUN: %numpy %S/../ops/Inputs/npy.py check %t/full c "a + 1"
# RUN: ptodist run %s --entry empty --ranks 1 --in a=%t/a.npy --out-dir %t/empty
# RUN: %numpy %S/../ops/Inputs/npy.py check %t/empty c "a * 0"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl


@pl.program
class Escaping:
    # CHECK-LABEL: def add_rows(
    @pl.function(type=pl.FunctionType.InCore)
    def add_rows(
        self,
        a: pl.Tensor[[8, 16], pl.FP32],
        c: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
        m: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        # CHECK: out = c
        # CHECK-NEXT: for i in pl.range(0, m, 2):
        for i in pl.range(0, m, 2):
            t = pl.load(a, [i, 0], [2, 16])
            out = pl.store(pl.add(t, 1.0), [i, 0], c)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def full(
        self, a: pl.Tensor[[8, 16], pl.FP32], c: pl.Out[pl.Tensor[[8, 16], pl.FP32]]
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        c = self.add_rows(a, c, 8)
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def empty(
        self, a: pl.Tensor[[8, 16], pl.FP32], c: pl.Out[pl.Tensor[[8, 16], pl.FP32]]
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        c = self.add_rows(a, c, 0)
        return c
