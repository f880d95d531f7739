# The high-precision rsqrt as pypto-lib's hc_pre.py computes its inverse rms: pl.rsqrt(..., 
# high_precision=True) of a tile accumulated from pl.full, nested in a reshape; pl.tile.rsqrt(t, tmp)
# with the program's own scratch; and of a GM tensor. Golden values from numpy (1 / sqrt in fp32).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) % 13) * 0.25 + 0.5"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t inv "(1 / np.sqrt((x * x).sum(axis=2) / 8 + 1e-6)).astype(np.float32).reshape(2, 4, 1)"
# RUN: %numpy %S/Inputs/npy.py check %t own "(1 / np.sqrt(x)).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t gm "(1 / np.sqrt(x + 1)).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: pto.trsqrt ins(%{{[^,]*}}, %rsqrt_tmp{{[_0-9]*}} : !pto.tile_buf<{{.*}}>, !pto.tile_buf<{{.*}}>) outs(
# PTO: pto.trsqrt ins(%{{[^,]*}}, %tmp : !pto.tile_buf<{{.*}}>, !pto.tile_buf<{{.*}}>) outs(
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def rms(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    inv: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    own: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    gm: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    sq_sum = pl.full([1, ROWS], dtype=pl.FP32, value=0.0)
    sq_sum = pl.add(sq_sum, pl.reshape(pl.row_sum(pl.mul(t, t)), [1, ROWS]))
    r = pl.reshape(pl.rsqrt(pl.add(pl.mul(sq_sum, 1.0 / COLS), 1e-6), high_precision=True), [ROWS, 1])
    inv = pl.store(r, [0, 0], inv)
    tmp = pl.tile.create([ROWS, COLS], dtype=pl.FP32)
    own = pl.store(pl.tile.rsqrt(t, tmp), [0, 0], own)
    g = pl.rsqrt(pl.add(x, 1.0), high_precision=True)
    gm = pl.assemble(gm, g, [0, 0])
    return inv, own, gm


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    inv: pl.Out[pl.Tensor[[ROWS, 1], pl.FP32]],
    own: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    gm: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    return rms(x, inv, own, gm)


@pl.jit.host
def rsqrt_high_precision(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    inv: pl.Out[pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32]],
    own: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    gm: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], inv[r], own[r], gm[r], device=r)
