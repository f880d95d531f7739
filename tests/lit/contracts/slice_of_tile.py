# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# pl.slice of a tile (PyPTO's tile.slice, `t[0:2, :]` of a tile in a kernel): a new tile of `shape` in
# the source's memory, partially valid with valid_shape; the region lies inside the tile. In PTO a
# pto.subview window of the source (with `valid [...]` for valid_shape) copied into the result
# (tests/lit/pto/tile_regions.py). The golden run is tests/python/test_tensor_tiles.py; the errors are
# in slice_of_tile_errors.py.
import pypto.language as pl


# PTO: %slice_view = pto.subview %t[%c2, %c0] sizes [2, 16] : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, {{.*}}> -> !pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=16, v_row=2, v_col=16,
# PTO-NEXT: pto.tmov ins(%slice_view : {{.*}}) outs(%tile :
# PTO: %slice_view_1 = pto.subview %t[%c4, %c0] sizes [2, 16] valid [%c1, %c16] : {{.*}} -> !pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=16, v_row=1, v_col=16,
# PTO-NEXT: pto.tmov ins(%slice_view_1 : {{.*}}) outs(%tile_1 : !pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=16, v_row=?, v_col=?,
@pl.jit.incore
def rows(x: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[2, 16], pl.FP32]]):
    t = pl.load(x, [0, 0], [8, 16])
    out = pl.store(t[2:4, :], [0, 0], out)
    out = pl.store(pl.tile.slice(t, [2, 16], [4, 0], valid_shape=[1, 16]), [0, 0], out)
    return out
