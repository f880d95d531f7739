# The axis reductions on GM tensors (pl.tensor.row_sum/row_max/row_argmax, pl.col_min of a tensor) and
# on a partially valid tile, which is reduced over its valid region only, as the device's TROW*/TCOL*
# read its valid rows and columns (a store then writes that region). Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) * 37) % 29 - 14) / 8"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t vmax "np.concatenate([x[:, :2, :5].max(axis=2, keepdims=True), np.zeros((2, 2, 1), np.float32)], axis=1)"
# RUN: %numpy %S/Inputs/npy.py check %t vcol "np.concatenate([x[:, :2, :5].sum(axis=1, keepdims=True), np.zeros((2, 1, 3), np.float32)], axis=2)"
# RUN: %numpy %S/Inputs/npy.py check %t tsum "x.sum(axis=2, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t tmax "x.max(axis=2, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t tcol "x.min(axis=1, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t targ "x.argmax(axis=2)[:, :, None].astype(np.int32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# A tensor-level row_argmax has no PTO lowering yet, a located error (row_sum / row_max convert to
# tiles); the partially valid tile's kernel lowers (pl.set_validshape: tests/lit/pto/tile_regions.py).
# PTO: error: pl.assemble: assembling a GM tensor (not a tile) has no PTO lowering yet
# PTO-NEXT: targ = pl.assemble(targ, pl.tensor.row_argmax(x), [0, 0])
# PTO-NOT: error:
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def reduce_tensors(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    tsum: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    tmax: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    tcol: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    targ: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
):
    # IR: tsum = pl.assemble(tsum, pl.tensor.row_sum(x), [0, 0])
    tsum = pl.assemble(tsum, pl.tensor.row_sum(x), [0, 0])
    tmax = pl.assemble(tmax, pl.tensor.row_max(x), [0, 0])
    # IR: tcol = pl.assemble(tcol, pl.col_min(x), [0, 0])
    tcol = pl.assemble(tcol, pl.col_min(x), [0, 0])
    targ = pl.assemble(targ, pl.tensor.row_argmax(x), [0, 0])
    return tsum, tmax, tcol, targ


@pl.jit.incore
def reduce_partial(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    vmax: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    vcol: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    tmp = pl.create_tile([ROWS, COLS], dtype=pl.FP32)
    v = pl.set_validshape(t, 2, 5)
    vmax = pl.store(pl.row_max(v, tmp), [0, 0], vmax)
    vcol = pl.store(pl.col_sum(v), [0, 0], vcol)
    return vmax, vcol


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    vmax: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    vcol: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    tsum: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    tmax: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    tcol: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    targ: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
):
    reduce_tensors(x, tsum, tmax, tcol, targ)
    return reduce_partial(x, vmax, vcol)


@pl.jit.host
def reduce_tensor_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    vmax: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32]],
    vcol: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]],
    tsum: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32]],
    tmax: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32]],
    tcol: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]],
    targ: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.INT32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], vmax[r], vcol[r], tsum[r], tmax[r], tcol[r], targ[r], device=r)
