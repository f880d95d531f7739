# RUN: ptodist compile %s --emit=ir | FileCheck %s
# @pl.jit.inline bodies are spliced before the statement that calls them: a parameter passed a
# variable is that variable, one passed an expression a fresh variable; the variables the body
# defines print as NAME__<n>; the final return is the call's value.
import pypto.language as pl

N = 16


@pl.jit.inline
def double_load(src: pl.Tensor[[1, N], pl.FP32], row: pl.Scalar[pl.INT32]):
    t = pl.load(src, [row, 0], [1, N])
    return pl.add(t, t)


@pl.jit.inline
def bump(n: pl.Scalar[pl.INT32]):
    n = n + 1
    return n


@pl.jit.incore
def kernel(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], k: pl.Scalar[pl.INT32]):
    t = double_load(x, k - k)
    k = bump(k)
    if k > 1:
        t = double_load(src=x, row=0)
    y = pl.store(t, [0, 0], y)
    return y


# CHECK-LABEL: def kernel(
# CHECK: row__1 = k - k
# CHECK-NEXT: t__1 = pl.load(x, [row__1, 0], [1, N])
# CHECK-NEXT: t = pl.add(t__1, t__1)
# CHECK-NEXT: k = k + 1
# CHECK-NEXT: k = k
# CHECK-NEXT: if k > 1:
# CHECK-NEXT: row__3 = 0
# CHECK-NEXT: t__3 = pl.load(x, [row__3, 0], [1, N])
# CHECK-NEXT: t = pl.add(t__3, t__3)
# CHECK-NEXT: y = pl.store(t, [0, 0], y)
