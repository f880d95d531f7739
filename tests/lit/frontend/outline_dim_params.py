# A scope outlined into a kernel (pl.spmd, pl.at) takes the enclosing function's variables it mentions,
# and also the scalars the dims of those variables name: a tensor reshaped to a run-time row count
# (pypto-lib's hc_pre.py: `x_flat = pl.reshape(x, [t_dim, HC_DIM])` with t_dim = pl.tensor.dim(x, 0))
# is a kernel parameter whose type names the kernel's own t_dim, as PyPTO's outliner passes a shape's
# variables (before the others, so the printed parameter list names it before its use); PTO then
# has a value for it.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(2*8*2*16, dtype=np.float32).reshape(2, 8, 2, 16)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "x.reshape(2, 8, 32) + 1"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# CHECK-LABEL: def rows(
# CHECK-NEXT: t_dim: pl.Scalar[pl.INT64],
# CHECK-NEXT: y: pl.Out[pl.Tensor{{\[\[}}T, 2 * N], pl.FP32]],
# CHECK-NEXT: x_flat: pl.Tensor{{\[\[}}t_dim, 2 * N], pl.FP32],
# PTO: func.func @rows(%arg0: i64, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
T = 8
N = 16


@pl.jit
def per_rank(x: pl.Tensor[[T, 2, N], pl.FP32], y: pl.Out[pl.Tensor[[T, 2 * N], pl.FP32]]):
    t_dim = pl.tensor.dim(x, 0)
    x_flat = pl.reshape(x, [t_dim, 2 * N])
    for b in pl.spmd(t_dim // 4, name_hint="rows"):
        r0 = b * 4
        y[r0:r0 + 4, :] = pl.add(x_flat[r0:r0 + 4, :], 1.0)
    return y


@pl.jit.host
def outline_dim_params(
    x: pl.Tensor[[N_RANKS, T, 2, N], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, T, 2 * N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], y[r], device=r)
