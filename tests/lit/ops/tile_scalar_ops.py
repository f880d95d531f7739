# Tile-scalar sub and div, as PyPTO dispatches them: pl.sub/pl.div of a tile and a scalar are
# pl.tile.subs/divs (so are pl.tile.sub/div with a scalar rhs, and `tile - s`, `tile / s`). Golden
# values from numpy; the IR and PTO text of each form.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) / 8"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# y[r] = ((((x[r] - r) / 4 - 0.5) / 2) - 1) / 0.25 - 3
# RUN: %numpy %S/Inputs/npy.py check %t y "((((x - np.arange(2).reshape(2, 1, 1)) / 4 - 0.5) / 2) - 1) / 0.25 - 3"
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def shift(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    rank: pl.Scalar[pl.INT32],
):
    tile = pl.load(x, [0, 0], [ROWS, COLS])
    # IR: tile = pl.subs(tile, pl.cast(rank, pl.FP32))
    # PTO: pto.tsubs
    tile = pl.sub(tile, pl.cast(rank, pl.FP32))
    # IR: tile = pl.divs(tile, 4.0)
    # PTO: pto.tdivs
    tile = pl.div(tile, 4.0)
    # IR: tile = pl.tile.subs(tile, 0.5)
    tile = pl.tile.sub(tile, 0.5)
    # IR: tile = pl.tile.divs(tile, 2.0)
    tile = pl.tile.divs(tile, 2.0)
    # IR: tile = pl.subs(tile, 1.0)
    tile = tile - 1.0
    # IR: tile = pl.divs(tile, 0.25)
    tile = tile / 0.25
    # IR: tile = pl.tile.subs(tile, 3.0)
    tile = pl.tile.subs(tile, 3.0)
    y = pl.store(tile, [0, 0], y)
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    rank: pl.Scalar[pl.INT32],
):
    return shift(x, y, rank)


@pl.jit.host
def tile_scalar_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], y[r], r, device=r)
