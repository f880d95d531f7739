# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# pl.slice of a tile (PyPTO's tile.slice, `t[0:2, :]` of a tile in a kernel): a new tile of `shape` in
# the source's memory, partially valid with valid_shape; the region lies inside the tile. Its PTO form
# (pto.subview) is not written yet. The golden run is tests/python/test_tensor_tiles.py; the errors
# are in slice_of_tile_errors.py.
import pypto.language as pl


# PTO: error: pl.slice: slicing a tile has no PTO lowering yet (pto.subview)
@pl.jit.incore
def rows(x: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[2, 16], pl.FP32]]):
    t = pl.load(x, [0, 0], [8, 16])
    out = pl.store(t[2:4, :], [0, 0], out)
    out = pl.store(pl.tile.slice(t, [2, 16], [4, 0], valid_shape=[1, 16]), [0, 0], out)
    return out
