# pl.gather on GM tensors as pypto-lib's models call it: the index form (out[b, k] = x[b, idx[b, k]],
# the rope half-swap) and the mask form (pl.tile.MaskPattern: P0101 the even lanes, P1010 the odd
# lanes with output_dtype reinterpreting the bits, P0010 lane 1 of every 4, P1111 all); and the tile
# forms pl.tile.gather (flat indices, pto.tgather) and pl.tile.gather_mask. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) * 7) % 23 - 3"
# RUN: %numpy %S/Inputs/npy.py save %t/idx.npy "np.array([[[1, 0, 3, 2, 5, 4], [7, 7, 0, 1, 2, 6], [0, 0, 0, 0, 0, 0], [2, 4, 6, 1, 3, 5]]] * 2, dtype=np.int32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in idx=%t/idx.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t swapped "np.take_along_axis(x, idx, axis=2)"
# RUN: %numpy %S/Inputs/npy.py check %t even "x[:, :, 0::2]"
# RUN: %numpy %S/Inputs/npy.py check %t oddbits "x[:, :, 1::2].copy().view(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t lane1 "x[:, :, 1::4]"
# RUN: %numpy %S/Inputs/npy.py check %t every "x"
# RUN: %numpy %S/Inputs/npy.py check %t tflat "x.reshape(2, 32)[:, idx[0].reshape(24)].reshape(2, 4, 6)"
# RUN: %numpy %S/Inputs/npy.py check %t tmask "x[:, :, 3::4]"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in idx=%t/idx.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# An index outside the row is a located run-time error, never a read past the tensor (the index form
# runs as PyPTO's row loop of pl.tile.gather, which names itself).
# RUN: %numpy %S/Inputs/npy.py save %t/bad.npy "np.full((2, 4, 6), 8, dtype=np.int32)"
# RUN: not ptodist run %s --ranks 2 --in x=%t/x.npy --in idx=%t/bad.npy --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: gather.py:[[@LINE+21]]:9: error: pl.tile.gather: index 8 at [0, 0] is outside [0, 8)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8
K = 6


@pl.jit.incore
def gather_tensors(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    idx: pl.Tensor[[ROWS, K], pl.INT32],
    swapped: pl.Out[pl.Tensor[[ROWS, K], pl.FP32]],
    even: pl.Out[pl.Tensor[[ROWS, COLS // 2], pl.FP32]],
    oddbits: pl.Out[pl.Tensor[[ROWS, COLS // 2], pl.INT32]],
    lane1: pl.Out[pl.Tensor[[ROWS, COLS // 4], pl.FP32]],
    every: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    # IR: s = pl.gather(x, dim=-1, index=idx)
    s = pl.gather(x, dim=-1, index=idx)
    swapped = pl.assemble(swapped, s, [0, 0])
    # IR: e = pl.gather(x, mask_pattern=1)
    e = pl.gather(x, mask_pattern=pl.tile.MaskPattern.P0101)
    even = pl.assemble(even, e, [0, 0])
    # IR: o = pl.tensor.gather(x, mask_pattern=2, output_dtype=pl.INT32)
    o = pl.tensor.gather(x, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.INT32)
    oddbits = pl.assemble(oddbits, o, [0, 0])
    lane1 = pl.assemble(lane1, pl.gather(x, mask_pattern=4), [0, 0])
    every = pl.assemble(every, pl.gather(x, mask_pattern=pl.tile.MaskPattern.P1111), [0, 0])
    return swapped, even, oddbits, lane1, every


@pl.jit.incore
def gather_tiles(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    idx: pl.Tensor[[ROWS, K], pl.INT32],
    tflat: pl.Out[pl.Tensor[[ROWS, K], pl.FP32]],
    tmask: pl.Out[pl.Tensor[[ROWS, COLS // 4], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    i = pl.load(idx, [0, 0], [ROWS, K])
    tmp = pl.create_tile([ROWS, K], dtype=pl.INT32)
    # IR: g = pl.tile.gather(t, i, tmp)
    g = pl.tile.gather(t, i, tmp)
    tflat = pl.store(g, [0, 0], tflat)
    # IR: m = pl.tile.gather_mask(t, 6)
    m = pl.tile.gather_mask(t, pl.tile.MaskPattern.P1000)
    tmask = pl.store(m, [0, 0], tmask)
    return tflat, tmask


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    idx: pl.Tensor[[ROWS, K], pl.INT32],
    swapped: pl.Out[pl.Tensor[[ROWS, K], pl.FP32]],
    even: pl.Out[pl.Tensor[[ROWS, COLS // 2], pl.FP32]],
    oddbits: pl.Out[pl.Tensor[[ROWS, COLS // 2], pl.INT32]],
    lane1: pl.Out[pl.Tensor[[ROWS, COLS // 4], pl.FP32]],
    every: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    tflat: pl.Out[pl.Tensor[[ROWS, K], pl.FP32]],
    tmask: pl.Out[pl.Tensor[[ROWS, COLS // 4], pl.FP32]],
):
    gather_tensors(x, idx, swapped, even, oddbits, lane1, every)
    return gather_tiles(x, idx, tflat, tmask)


@pl.jit.host
def gather(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    idx: pl.Tensor[[N_RANKS, ROWS, K], pl.INT32],
    swapped: pl.Out[pl.Tensor[[N_RANKS, ROWS, K], pl.FP32]],
    even: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS // 2], pl.FP32]],
    oddbits: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS // 2], pl.INT32]],
    lane1: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS // 4], pl.FP32]],
    every: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    tflat: pl.Out[pl.Tensor[[N_RANKS, ROWS, K], pl.FP32]],
    tmask: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS // 4], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], idx[r], swapped[r], even[r], oddbits[r], lane1[r], every[r], tflat[r], tmask[r], device=r)
