# RUN: ptodist compile %s --emit=ir | FileCheck %s
# Every statement form of a kernel body, printed back in the same syntax.
import pypto.language as pl

M = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[M, M], pl.FP32], y: pl.Out[pl.Tensor[[M, M], pl.FP32]], n: pl.Scalar[pl.INT32]):
    """Docstrings are kept."""
    # CHECK: """Docstrings are kept."""
    # CHECK: v: pl.Scalar[pl.INT32] = n * 2
    v: pl.Scalar[pl.INT32] = n * 2
    # CHECK: a, _ = (v, v + 1)
    a, _ = v, v + 1
    # CHECK: a = a + 1
    a += 1
    # CHECK: for i in pl.range(4):
    for i in pl.range(4):
        pass
    # CHECK: for j in pl.range(1, M, 2):
    for j in pl.range(1, M, 2):
        pass
    # CHECK: for k in pl.pipeline(M, stage=2):
    for k in pl.pipeline(M, stage=2):
        t = pl.load(x, [k, 0], [1, M])
    # CHECK: if a == 0:
    # CHECK: elif a > 1 and not a < 5:
    # CHECK: else:
    if a == 0:
        pass
    elif a > 1 and not a < 5:
        pass
    else:
        pass
    # CHECK: b = -a if a >= 0 else ~a
    b = -a if a >= 0 else ~a
    # CHECK: c = a & 1 | (a ^ 2) << 1
    c = (a & 1) | (a ^ 2) << 1
    u = pl.load(x, [0, 0], [M, M])
    y = pl.store(u, [0, 0], y)
    # CHECK: return y
    return y
