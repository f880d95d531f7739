# One element of a tile: pl.tile.write sets it in place (the tile keeps its buffer; later reads and
# stores see it), pl.tile.read reads it; the unified pl.read / pl.write of a tile are these ops, as
# PyPTO dispatches them. The meta row is written in a loop as pypto-lib's moe dispatch does. Golden
# values from numpy (halves: exact).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) % 11) * 0.5 - 2"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t patched "np.where(np.arange(32).reshape(1, 4, 8) == 10, x[:, 0:1, 0:1] + x[:, 3:4, 7:8], x)"
# RUN: %numpy %S/Inputs/npy.py check %t meta "np.tile(np.arange(8, dtype=np.int32) ** 2 + 1, (2, 1, 1)).reshape(2, 1, 8)"
# RUN: %numpy %S/Inputs/npy.py check %t picked "x[:, 2:3, 5:6] * 2 + 1"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def elements(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    patched: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    meta: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
    picked: pl.Out[pl.Tensor[[1, 1], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    # IR: a = pl.tile.read(t, [0, 0])
    # PTO: = pto.tgetval ins(%{{.*}}, %{{.*}} : !pto.tile_buf<{{.*}}f32{{.*}}>, index) outs : f32
    a = pl.tile.read(t, [0, 0])
    # IR: b = pl.tile.read(t, [ROWS - 1, COLS - 1])
    b = pl.read(t, [ROWS - 1, COLS - 1])
    # IR: pl.tile.write(t, [1, 2], a + b)
    # PTO: pto.tsetval ins(%{{.*}}, %{{.*}} : index, f32) outs(%{{.*}} : !pto.tile_buf<{{.*}}f32{{.*}}>)
    pl.tile.write(t, [1, 2], a + b)
    patched = pl.store(t, [0, 0], patched)
    row = pl.tile.full([1, COLS], dtype=pl.INT32, value=1)
    for e in pl.range(COLS):
        # IR: pl.tile.write(row, [0, e], pl.tile.read(row, [0, e]) + pl.cast(e * e, pl.INT32))
        pl.write(row, [0, e], pl.read(row, [0, e]) + pl.cast(e * e, pl.INT32))
    meta = pl.store(row, [0, 0], meta)
    pl.write(picked, [0, 0], pl.tile.read(t, [2, 5]) * 2.0 + 1.0)
    return patched, meta, picked


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    patched: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    meta: pl.Out[pl.Tensor[[1, COLS], pl.INT32]],
    picked: pl.Out[pl.Tensor[[1, 1], pl.FP32]],
):
    return elements(x, patched, meta, picked)


@pl.jit.host
def tile_element(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    patched: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    meta: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.INT32]],
    picked: pl.Out[pl.Tensor[[N_RANKS, 1, 1], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], patched[r], meta[r], picked[r], device=r)
