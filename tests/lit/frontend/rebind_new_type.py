# RUN: ptodist compile %s --emit=tile-ir | FileCheck %s
# A name rebound in the block that bound it may take a value of another type (Python rebinds names,
# PyPTO's SSA makes a new variable), as pypto-lib's gate does with
# `sq_sum = pl.set_validshape(pl.reshape(sq_sum, [1, ROW_PAD]), 1, 1)`: the code after it reads the
# new variable (printed under the same name, which reads back the same way); so may a tile with a new
# valid region.
import pypto.language as pl


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):
    # CHECK: s: pl.Tile{{\[\[}}8, 1], pl.FP32, pl.Mem.Vec{{.*}}] = pl.row_sum(tile, tmp_tile=tmp_tile)
    # CHECK-NEXT: s: pl.Tile{{\[\[}}1, 8], pl.FP32, pl.Mem.Vec{{.*}}] = pl.reshape(s, [1, 8])
    # CHECK-NEXT: y = pl.store(s, [0, 0], y)
    s = pl.row_sum(pl.load(x, [0, 0], [8, 16]))
    s = pl.reshape(s, [1, 8])
    y = pl.store(s, [0, 0], y)
    # A tile's new valid region is a new type too: the store writes (and is checked against) [1, 4].
    # CHECK-NEXT: r: pl.Tile{{\[\[}}1, 16], pl.FP32, pl.Mem.Vec{{.*}}] = pl.load(x, [0, 0], [1, 16])
    # CHECK-NEXT: r: pl.Tile{{\[\[}}1, 16], pl.FP32, pl.Mem.Vec, valid_shape=[1, 4]{{.*}}] = pl.set_validshape(r, 1, 4)
    # CHECK-NEXT: y = pl.store(r, [0, 4], y, shapes=[1, 4])
    r = pl.load(x, [0, 0], [1, 16])
    r = pl.set_validshape(r, 1, 4)
    y = pl.store(r, [0, 4], y, shapes=[1, 4])
    return y
