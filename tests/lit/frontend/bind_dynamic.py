# RUN: ptodist compile %s --emit=ir | FileCheck %s
# `param.bind_dynamic(dim, var)` (PyPTO's Tensor.bind_dynamic) makes that dim of the parameter the
# run-time dim `var`, over what the annotation says, and is gone from the body; and a call of a
# function without a return annotation has the types of what its first `return` returns.
import pypto.language as pl
import pypto.language.distributed as pld

N = 16
ROWS = pl.dynamic("ROWS")


# CHECK-LABEL: def step(
# CHECK-NEXT: x: pl.Tensor{{\[\[}}ROWS, N], pl.FP32],
# CHECK: ) -> tuple[pl.Tensor{{\[\[}}ROWS, N], pl.FP32], pl.Tensor{{\[\[}}ROWS, N], pl.FP32]]:
# CHECK-NOT: bind_dynamic
@pl.jit.incore
def step(
    x: pl.Tensor[[4, N], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]],
    z: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]],
):
    x.bind_dynamic(0, ROWS)
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(t, [0, 0], y)
    z = pl.store(t, [0, 0], z)
    return z, y


# CHECK-LABEL: def chip(
# CHECK: ) -> pl.Tensor{{\[\[}}ROWS, N], pl.FP32]:
# CHECK-NEXT: z, y = step(x, y, z)
@pl.jit
def chip(
    x: pl.Tensor[[ROWS, N], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]],
    z: pl.Out[pl.Tensor[[ROWS, N], pl.FP32]],
):
    z, y = step(x, y, z)
    return y
