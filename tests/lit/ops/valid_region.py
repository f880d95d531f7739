# pl.set_validshape and pl.fillpad (tile and tensor forms): set_validshape narrows a tile's valid
# region without moving data (a later store writes only that region), fillpad writes PyPTO's pad value
# outside it (zero, or the dtype's max/min: +-inf for floats, the integer limits otherwise). Golden
# values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) - 20"
# RUN: %numpy %S/Inputs/npy.py save %t/k.npy "np.arange(2*4*8, dtype=np.int32).reshape(2, 4, 8) - 20"
# RUN: %numpy %S/Inputs/npy.py save %t/lens.npy "np.array([[3], [6]], dtype=np.int32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in k=%t/k.npy --in lens=%t/lens.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t lo "np.where((np.arange(4)[:, None] < 2) & (np.arange(8) < 5), x, -np.inf).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t hi "np.where((np.arange(4)[:, None] < 2) & (np.arange(8) < 5), x, np.inf).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t zero "np.where((np.arange(4)[:, None] < 3) & (np.arange(8) < 2), x, 0).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t part "np.where((np.arange(4)[:, None] < 2) & (np.arange(8) < 5), x + 1, 0).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t dyn "np.where((np.arange(4)[:, None] < 4) & (np.arange(8)[None, None, :] < lens[:, :, None]), x, 0).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t imax "np.where((np.arange(4)[:, None] < 1) & (np.arange(8) < 7), k, np.iinfo(np.int32).max).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t imin "np.where((np.arange(4)[:, None] < 4) & (np.arange(8) < 3), k, np.iinfo(np.int32).min).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t tpad "np.where((np.arange(4)[:, None] < 3) & (np.arange(8) < 6), x, np.inf).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in k=%t/k.npy --in lens=%t/lens.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# set_validshape's result shares its operand's buffer (plan-memory joins them, as PyPTO's result reuses
# the input's memory).
# RUN: ptodist compile %s --emit=tile-ir | FileCheck %s --check-prefix=PLAN
# PLAN: t: pl.Tile{{\[\[}}4, 8], pl.FP32, pl.Mem.Vec, addr=[[T:[0-9]+]]{{]}} = pl.load(
# PLAN: v: pl.Tile{{\[\[}}4, 8], pl.FP32, pl.Mem.Vec, valid_shape=[2, 5], addr=[[T]]{{]}} = pl.set_validshape(t, 2, 5)
# PTO's set_validshape narrows the operand's own buffer (pto.set_validshape, as PyPTO lowers it), so
# narrowing t twice, as this kernel does for the CPU runtime, is an error there (tests/lit/pto/tile_regions.py).
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: valid_region.py:[[@LINE+31]]:{{[0-9]+}}: error: 't' is used after pl.set_validshape narrowed it
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def pad_tiles(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    k: pl.Tensor[[ROWS, COLS], pl.INT32],
    lens: pl.Tensor[[1], pl.INT32],
    lo: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    hi: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    zero: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    part: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    dyn: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    imax: pl.Out[pl.Tensor[[ROWS, COLS], pl.INT32]],
    imin: pl.Out[pl.Tensor[[ROWS, COLS], pl.INT32]],
    tpad: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    # IR: v = pl.set_validshape(t, 2, 5)
    v = pl.set_validshape(t, 2, 5)
    # IR: a = pl.fillpad(v, pad_value=pl.PadValue.min)
    a = pl.fillpad(v, pad_value=pl.PadValue.min)
    lo = pl.store(a, [0, 0], lo)
    hi = pl.store(pl.fillpad(v, pl.PadValue.max), [0, 0], hi)
    # IR: z = pl.tile.fillpad(w)
    w = pl.tile.set_validshape(t, 3, 2)
    z = pl.tile.fillpad(w)
    zero = pl.store(z, [0, 0], zero)
    # A store writes only the valid region of an elementwise result of a narrowed tile.
    part = pl.store(pl.adds(v, 1.0), [0, 0], part)
    n = pl.read(lens, [0])
    d = pl.fillpad(pl.set_validshape(t, ROWS, n), pad_value=0)
    dyn = pl.store(d, [0, 0], dyn)
    ki = pl.load(k, [0, 0], [ROWS, COLS])
    # IR: m = pl.tile.fillpad_inplace(pl.set_validshape(ki, 1, 7), pad_value=pl.PadValue.max)
    m = pl.tile.fillpad_inplace(pl.set_validshape(ki, 1, 7), pl.PadValue.max)
    imax = pl.store(m, [0, 0], imax)
    kj = pl.load(k, [0, 0], [ROWS, COLS])
    imin = pl.store(pl.fillpad(pl.tile.set_validshape(kj, ROWS, 3), pad_value=pl.PadValue.min), [0, 0], imin)
    # The tensor-level forms: a narrowed view of x, padded into a new tensor.
    # IR: p = pl.tensor.fillpad(pl.tensor.set_validshape(x, 3, 6), pad_value=pl.PadValue.max)
    p = pl.tensor.fillpad(pl.tensor.set_validshape(x, 3, 6), pad_value=pl.PadValue.max)
    tpad = pl.assemble(tpad, p, [0, 0])
    return lo, hi, zero, part, dyn, imax, imin, tpad


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    k: pl.Tensor[[ROWS, COLS], pl.INT32],
    lens: pl.Tensor[[1], pl.INT32],
    lo: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    hi: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    zero: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    part: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    dyn: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    imax: pl.Out[pl.Tensor[[ROWS, COLS], pl.INT32]],
    imin: pl.Out[pl.Tensor[[ROWS, COLS], pl.INT32]],
    tpad: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    return pad_tiles(x, k, lens, lo, hi, zero, part, dyn, imax, imin, tpad)


@pl.jit.host
def valid_region(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    k: pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32],
    lens: pl.Tensor[[N_RANKS, 1], pl.INT32],
    lo: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    hi: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    zero: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    part: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    dyn: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    imax: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32]],
    imin: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32]],
    tpad: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], k[r], lens[r], lo[r], hi[r], zero[r], part[r], dyn[r], imax[r], imin[r], tpad[r], device=r)
