# pl.scatter / pl.tensor.scatter on GM tensors: the index form (out = base, out[b, idx[b, k]] = val[b, k],
# ascending k so a repeated column keeps the last write), FP32 values with INT32 indices and FP16 ones
# with INT16 indices; and the mask form (each row of the input onto the columns of dst a
# pl.tile.MaskPattern selects, the other columns keeping dst's values), chained to interleave two
# inputs. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/base.npy "-(np.arange(2*4*16, dtype=np.float32).reshape(2, 4, 16) + 1)"
# RUN: %numpy %S/Inputs/npy.py save %t/idx.npy "np.array([[[3, 0, 15, 7, 3, 9], [1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 0], [14, 12, 10, 8, 6, 4]]] * 2, dtype=np.int32)"
# RUN: %numpy %S/Inputs/npy.py save %t/val.npy "np.arange(2*4*6, dtype=np.float32).reshape(2, 4, 6) + 100"
# RUN: %numpy %S/Inputs/npy.py save %t/rows.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) + 1000"
# RUN: ptodist run %s --ranks 2 --in base=%t/base.npy --in idx=%t/idx.npy --in val=%t/val.npy --in rows=%t/rows.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t scattered "(lambda o: ([o[r, b].__setitem__(idx[r, b, k], val[r, b, k]) for r in range(2) for b in range(4) for k in range(6)], o)[1])(base.copy())"
# RUN: %numpy %S/Inputs/npy.py check %t scattered16 "(lambda o: ([o[r, b].__setitem__(idx[r, b, k], val[r, b, k]) for r in range(2) for b in range(4) for k in range(6)], o)[1])(base.copy()).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py check %t evens "(lambda o: (o.__setitem__((slice(None), slice(None), slice(0, None, 2)), rows), o)[1])(base.copy())"
# RUN: %numpy %S/Inputs/npy.py check %t lane3 "(lambda o: (o.__setitem__((slice(None), slice(None), slice(3, None, 4)), rows[:, :, :4]), o)[1])(base.copy())"
# RUN: %numpy %S/Inputs/npy.py check %t woven "np.stack([rows, rows + 0.5], 3).reshape(2, 4, 16)"
# RUN: ptodist run %s --ranks 2 --in base=%t/base.npy --in idx=%t/idx.npy --in val=%t/val.npy --in rows=%t/rows.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# An index outside the row is a located run-time error, never a write past the tensor.
# RUN: %numpy %S/Inputs/npy.py save %t/bad.npy "np.full((2, 4, 6), 16, dtype=np.int32)"
# RUN: not ptodist run %s --ranks 2 --in base=%t/base.npy --in idx=%t/bad.npy --in val=%t/val.npy --in rows=%t/rows.npy --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: scatter.py:[[@LINE+23]]:{{[0-9]+}}: error: pl.scatter: index 16 at [0, 0] is outside [0, 16)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 16
K = 6


@pl.jit.incore
def scatter_tensors(
    base: pl.Tensor[[ROWS, COLS], pl.FP32],
    idx: pl.Tensor[[ROWS, K], pl.INT32],
    val: pl.Tensor[[ROWS, K], pl.FP32],
    rows: pl.Tensor[[ROWS, COLS // 2], pl.FP32],
    scattered: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    scattered16: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP16]],
    evens: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    lane3: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    woven: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    # IR: s = pl.scatter(base, dim=-1, index=idx, src=val)
    s = pl.scatter(base, dim=-1, index=idx, src=val)
    scattered = pl.assemble(scattered, s, [0, 0])
    # IR: h = pl.tensor.scatter(
    # IR-NEXT: pl.cast(base, pl.FP16), dim=-1, index=pl.cast(idx, pl.INT16), src=pl.cast(val, pl.FP16)
    h = pl.tensor.scatter(pl.cast(base, pl.FP16), dim=-1, index=pl.cast(idx, pl.INT16), src=pl.cast(val, pl.FP16))
    scattered16 = pl.assemble(scattered16, h, [0, 0])
    # IR: e = pl.scatter(rows, mask_pattern=1, dst=base)
    e = pl.scatter(rows, mask_pattern=pl.tile.MaskPattern.P0101, dst=base)
    evens = pl.assemble(evens, e, [0, 0])
    quarter = pl.slice(rows, [ROWS, COLS // 4], [0, 0])
    lane3 = pl.assemble(lane3, pl.tensor.scatter(quarter, mask_pattern=pl.tile.MaskPattern.P1000, dst=base), [0, 0])
    w = pl.scatter(rows, mask_pattern=pl.tile.MaskPattern.P0101, dst=base)
    w = pl.scatter(pl.add(rows, 0.5), mask_pattern=pl.tile.MaskPattern.P1010, dst=w)
    woven = pl.assemble(woven, w, [0, 0])
    return scattered, scattered16, evens, lane3, woven


@pl.jit.host
def scatter(
    base: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    idx: pl.Tensor[[N_RANKS, ROWS, K], pl.INT32],
    val: pl.Tensor[[N_RANKS, ROWS, K], pl.FP32],
    rows: pl.Tensor[[N_RANKS, ROWS, COLS // 2], pl.FP32],
    scattered: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    scattered16: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP16]],
    evens: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    lane3: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    woven: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        scatter_tensors(base[r], idx[r], val[r], rows[r], scattered[r], scattered16[r], evens[r], lane3[r], woven[r], device=r)
