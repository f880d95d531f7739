# Unified ops on scalars, as PyPTO dispatches them: pl.cast of a scalar, pl.add/pl.mul of scalars
# (scalar arithmetic), pl.add/pl.mul of a tile and a scalar (pl.tile.adds/muls), pl.min/pl.max and
# pl.const. Golden values from numpy; the PTO text of the scalar forms.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) / 8"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# y[r] = (x[r] + r) * (min(r, 1) + max(r, 0) * 2 - 1) + const(3, INT32) // 2
# RUN: %numpy %S/Inputs/npy.py check %t y "(x + np.arange(2).reshape(2, 1, 1)) * (np.minimum(np.arange(2), 1) + np.arange(2) * 2 - 1).reshape(2, 1, 1) + 1"
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def scale(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    rank: pl.Scalar[pl.INT32],
):
    tile = pl.load(x, [0, 0], [ROWS, COLS])
    # IR: rank_f32 = pl.cast(rank, pl.FP32)
    # PTO: arith.sitofp
    rank_f32 = pl.cast(rank, target_type=pl.FP32)
    # IR: tile = pl.adds(tile, rank_f32)
    tile = pl.add(tile, rank_f32)
    # IR: lo = pl.min(rank, 1)
    # PTO: arith.minsi
    lo = pl.min(rank, 1)
    # PTO: arith.maxsi
    hi = pl.max(rank, 0)
    # IR: factor = lo + hi * 2 - 1
    factor = pl.sub(pl.add(lo, pl.mul(hi, 2)), 1)
    # IR: tile = pl.muls(tile, pl.cast(factor, pl.FP32))
    tile = pl.mul(tile, pl.cast(factor, pl.FP32))
    # IR: three = pl.const(3, pl.INT32)
    three = pl.const(3, pl.INT32)
    # IR: tile = pl.tile.adds(tile, pl.cast(three // 2, pl.FP32))
    tile = pl.tile.adds(tile, pl.cast(three // 2, pl.FP32))
    y = pl.store(tile, [0, 0], y)
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    rank: pl.Scalar[pl.INT32],
):
    return scale(x, y, rank)


@pl.jit.host
def scalar_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], y[r], r, device=r)
