# RUN: ptodist compile %s --emit=ir | FileCheck %s
# Every statement form that lowers is in the printed IR, in kernels and orchestrators alike, so none can
# be dropped without this test failing (the forms that do not lower are in statement_errors.py).
import pypto.language as pl
import pypto.language.distributed as pld

N = 16


@pl.program
class Forms:
    # CHECK-LABEL: def kernel(
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
        # CHECK: ) -> pl.Tensor{{.*}}:
        # CHECK-NEXT: a = n
        a = n
        # CHECK-NEXT: a, b = (n, n + 1)
        a, b = n, n + 1
        # CHECK-NEXT: c, d = (n, n)
        [c, d] = n, n
        # CHECK-NEXT: _ = a
        _ = a
        # CHECK-NEXT: e: pl.Scalar[pl.INT32] = a
        e: pl.Scalar[pl.INT32] = a
        # CHECK-NEXT: a = a + 1
        # CHECK-NEXT: a = a - 1
        # CHECK-NEXT: a = a * 2
        # CHECK-NEXT: a = a // 2
        # CHECK-NEXT: a = a % 7
        # CHECK-NEXT: a = a ** 2
        # CHECK-NEXT: a = a & 255
        # CHECK-NEXT: a = a | 1
        # CHECK-NEXT: a = a ^ 3
        # CHECK-NEXT: a = a << 1
        # CHECK-NEXT: a = a >> 1
        a += 1
        a -= 1
        a *= 2
        a //= 2
        a %= 7
        a **= 2
        a &= 255
        a |= 1
        a ^= 3
        a <<= 1
        a >>= 1
        # CHECK-NEXT: f = a / 2
        f = a / 2
        # CHECK-NEXT: for i in pl.range(4):
        # CHECK-NEXT: a = a + i
        for i in pl.range(4):
            a = a + i
        # CHECK-NEXT: for _ in pl.range(1, 4, 2):
        # CHECK-NEXT: a = a + 1
        for _ in pl.range(1, 4, 2):
            a = a + 1
        # CHECK-NEXT: for _ in pl.unroll(2):
        # CHECK-NEXT: pass
        for _ in pl.unroll(2):
            pass
        # CHECK-NEXT: for j in pl.parallel(2):
        # CHECK-NEXT: pass
        for j in pl.parallel(2):
            pass
        # CHECK-NEXT: for _ in pl.pipeline(2, stage=2):
        # CHECK-NEXT: pass
        for _ in pl.pipeline(2, stage=2):
            pass
        # CHECK-NEXT: for k in pl.range(3):
        # CHECK-NEXT: pass
        for k in range(3):
            pass
        # CHECK-NEXT: if a == 0:
        # CHECK-NEXT: a = 1
        # CHECK-NEXT: elif a > 1:
        # CHECK-NEXT: a = 2
        # CHECK-NEXT: else:
        # CHECK-NEXT: a = 3
        if a == 0:
            a = 1
        elif a > 1:
            a = 2
        else:
            a = 3
        # CHECK-NEXT: if a == 1:
        # CHECK-NEXT: pass
        if a == 1: pass
        # CHECK-NEXT: a = 5
        # CHECK-NEXT: b = 6
        a = 5; b = 6
        "A bare string is a comment, not a statement."
        # CHECK-NEXT: t = pl.load(x, [0, 0], [1, N])
        t = pl.load(x, [0, 0], [1, N])
        # CHECK-NEXT: pl.store(t, [0, 0], y)
        pl.store(t, [0, 0], y)
        # CHECK-NEXT: return y
        return y

    # CHECK-LABEL: def orch(
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
        # CHECK: for _ in pl.range(2):
        # CHECK-NEXT: y = self.kernel(x, y, 1)
        for _ in pl.range(2):
            y = self.kernel(x, y, 1)
        # CHECK-NEXT: with pl.manual_scope():
        # CHECK-NEXT: y = self.kernel(x, y, 2)
        with pl.manual_scope():
            y = self.kernel(x, y, 2)
        # CHECK-NEXT: for _ in pl.unroll(2):
        # CHECK-NEXT: self.kernel(x, y, 3)
        for _ in pl.unroll(2):
            self.kernel(x, y, 3)
        # CHECK-NEXT: return y
        return y

    # CHECK-LABEL: def host(
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32], y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]]):
        # CHECK: ) -> pl.Tensor{{.*}}:
        # CHECK-NEXT: for r in pl.range(pld.world_size()):
        # CHECK-NEXT: for _ in pl.parallel(2):
        # CHECK-NEXT: self.orch(x[r], y[r], device=r)
        for r in pl.range(pld.world_size()):
            for _ in pl.parallel(2):
                self.orch(x[r], y[r], device=r)
        # CHECK-NEXT: return y
        return y
