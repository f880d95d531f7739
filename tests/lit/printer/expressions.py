# RUN: ptodist compile %s --emit=ir | FileCheck %s
# RUN: ptodist compile %s --emit=ir > %t.py && ptodist compile %t.py --emit=ir > %t2.py && diff %t.py %t2.py
# The printer keeps only the parentheses Python's precedence needs.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Expressions:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, signal: pld.DistributedTensor[[1, 8], pl.INT32]):
        ctx = pld.get_comm_ctx(signal)
        a = pld.rank(ctx)
        b = pld.nranks(ctx)
        # CHECK: c = a + b * 2
        c = a + (b * 2)
        # CHECK-NEXT: d = (a + b) * 2
        d = (a + b) * 2
        # CHECK-NEXT: e = a - (b - c)
        e = a - (b - c)
        # CHECK-NEXT: f = a - b - c
        f = (a - b) - c
        # CHECK-NEXT: g = (a + 1) % b
        g = ((a + 1)) % b
        # CHECK-NEXT: h = -a // 2
        h = (-a) // 2
        # CHECK-NEXT: i = -(a + b)
        i = -(a + b)
        # CHECK-NEXT: j = a ** 2 ** b
        j = a ** (2 ** b)
        # CHECK-NEXT: k = (a ** 2) ** b
        k = (a ** 2) ** b
        # CHECK-NEXT: m = a & b | c ^ d
        m = (a & b) | (c ^ d)
        # CHECK-NEXT: n = (a | b) & c << 1
        n = (a | b) & (c << 1)
        # CHECK-NEXT: p = a if a > b else b
        p = a if a > b else b
        # CHECK-NEXT: q = (a if a > b else b) + 1
        q = (a if (a > b) else b) + 1
        # CHECK-NEXT: if a == 0 and (b > 1 or not c < d):
        if (a == 0) and ((b > 1) or (not (c < d))):
            pld.system.notify(signal, 0, [0, e + f + g + h + i + j + k + m + n + p + q], 1, op=pld.NotifyOp.AtomicAdd)
