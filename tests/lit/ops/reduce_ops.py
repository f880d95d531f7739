# The axis reductions (reduce_ops.def) on tiles: row_min/row_prod/row_argmax/row_argmin
# ([M, N] -> [M, 1]) and col_sum/col_max/col_min/col_prod/col_argmax/col_argmin ([M, N] -> [1, N]) on
# tiles; reduce_tensor_ops.py has the tensor forms and partially valid tiles. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) * 37) % 29 - 14) / 8"
# RUN: %numpy %S/Inputs/npy.py save %t/k.npy "(np.arange(2*4*8, dtype=np.int32).reshape(2, 4, 8) * 13) % 11 - 5"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in k=%t/k.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t rmin "x.min(axis=2, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t rprod "(x / 4 + 1).prod(axis=2, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t ramax "x.argmax(axis=2)[:, :, None].astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t ramin "x.argmin(axis=2)[:, :, None].astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t csum "x.sum(axis=1, keepdims=True) + x.sum(axis=1, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t cmax "x.max(axis=1, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t cmin "x.min(axis=1, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t cprod "(x / 4 + 1).prod(axis=1, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t camax "x.argmax(axis=1)[:, None, :].astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t camin "x.argmin(axis=1)[:, None, :].astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t kmin "k.min(axis=2, keepdims=True)"
# RUN: %numpy %S/Inputs/npy.py check %t ksum "k.sum(axis=1, keepdims=True)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in k=%t/k.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def reduce_tiles(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    k: pl.Tensor[[ROWS, COLS], pl.INT32],
    rmin: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    rprod: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    ramax: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
    ramin: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
    csum: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    cmax: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    cmin: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    cprod: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    camax: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
    camin: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
    kmin: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
    ksum: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    tmp = pl.create_tile([ROWS, COLS], dtype=pl.FP32)
    # IR: a = pl.row_min(t, tmp_tile=tmp)
    # PTO: pto.trowmin ins(
    a = pl.row_min(t, tmp)
    rmin = pl.store(a, [0, 0], rmin)
    q = pl.adds(pl.muls(t, 0.25), 1.0)
    # PTO: pto.trowprod ins(
    rprod = pl.store(pl.tile.row_prod(q, tmp), [0, 0], rprod)
    # IR: i = pl.row_argmax(t, tmp_tile=tmp)
    # PTO: pto.trowargmax ins(
    i = pl.row_argmax(t, tmp_tile=tmp)
    ramax = pl.store(i, [0, 0], ramax)
    # PTO: pto.trowargmin ins(
    ramin = pl.store(pl.tile.row_argmin(t, tmp), [0, 0], ramin)
    # PTO: pto.tcolsum ins(
    # PTO: pto.tcolsum ins({{.*}} {isBinary = true} :
    s1 = pl.col_sum(t)
    s2 = pl.tile.col_sum(t, tmp)
    csum = pl.store(pl.add(s1, s2), [0, 0], csum)
    # IR: m = pl.col_max(t)
    # PTO: pto.tcolmax ins(
    m = pl.col_max(t)
    cmax = pl.store(m, [0, 0], cmax)
    # PTO: pto.tcolmin ins(
    cmin = pl.store(pl.tile.col_min(t), [0, 0], cmin)
    # PTO: pto.tcolprod ins(
    cprod = pl.store(pl.col_prod(q), [0, 0], cprod)
    # PTO: pto.tcolargmax ins(
    camax = pl.store(pl.col_argmax(t, tmp), [0, 0], camax)
    # PTO: pto.tcolargmin ins(
    camin = pl.store(pl.tile.col_argmin(t, tmp), [0, 0], camin)
    ki = pl.load(k, [0, 0], [ROWS, COLS])
    ktmp = pl.create_tile([ROWS, COLS], dtype=pl.INT32)
    kmin = pl.store(pl.row_min(ki, ktmp), [0, 0], kmin)
    ksum = pl.store(pl.col_sum(ki), [0, 0], ksum)
    return rmin, rprod, ramax, ramin, csum, cmax, cmin, cprod, camax, camin, kmin, ksum


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    k: pl.Tensor[[ROWS, COLS], pl.INT32],
    rmin: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    rprod: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    ramax: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
    ramin: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
    csum: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    cmax: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    cmin: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    cprod: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
    camax: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
    camin: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
    kmin: pl.Out[pl.Tensor[[ROWS, 1], pl.INT32]],
    ksum: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
):
    reduce_tiles(x, k, rmin, rprod, ramax, ramin, csum, cmax, cmin, cprod, camax, camin, kmin, ksum)
    return rmin


@pl.jit.host
def reduce_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    k: pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32],
    rmin: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32]],
    rprod: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32]],
    ramax: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.INT32]],
    ramin: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.INT32]],
    csum: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]],
    cmax: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]],
    cmin: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]],
    cprod: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]],
    camax: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.INT32]],
    camin: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.INT32]],
    kmin: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.INT32]],
    ksum: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.INT32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(
            x[r], k[r], rmin[r], rprod[r], ramax[r], ramin[r], csum[r], cmax[r], cmin[r], cprod[r], camax[r],
            camin[r], kmin[r], ksum[r], device=r,
        )
