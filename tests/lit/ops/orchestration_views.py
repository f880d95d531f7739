# pl.reshape and pl.read in an orchestration function, as pypto-lib's hc_pre writes them: the reshape
# is a view of the same GM memory (a kernel writing through it writes the caller's tensor) and the read
# is a scalar the orchestration passes on. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*4*2*8, dtype=np.float32).reshape(2, 4, 2, 8) / 8"
# RUN: %numpy %S/Inputs/npy.py save %t/scale.npy "np.array([[0.5, 3.0], [2.0, -1.0]], dtype=np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in scale=%t/scale.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "(x.reshape(2, 4, 16) * scale[:, 1, None, None]).reshape(2, 4, 2, 8)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in scale=%t/scale.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: func.func @scale_rows
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
T = 4
H = 2
D = 8


@pl.jit.incore
def scale_rows(
    x: pl.Tensor[[T, H * D], pl.FP32],
    s: pl.Scalar[pl.FP32],
    y: pl.Out[pl.Tensor[[T, H * D], pl.FP32]],
):
    t = pl.load(x, [0, 0], [T, H * D])
    y = pl.store(pl.mul(t, s), [0, 0], y)
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[T, H, D], pl.FP32],
    scale: pl.Tensor[[2], pl.FP32],
    y: pl.Out[pl.Tensor[[T, H, D], pl.FP32]],
):
    x_flat = pl.reshape(x, [T, H * D])
    y_flat = pl.reshape(y, [T, H * D])
    s = pl.read(scale, [1])
    scale_rows(x_flat, s, y_flat)
    return y


@pl.jit.host
def orchestration_views(
    x: pl.Tensor[[N_RANKS, T, H, D], pl.FP32],
    scale: pl.Tensor[[N_RANKS, 2], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, T, H, D], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], scale[r], y[r], device=r)
