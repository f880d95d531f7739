# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,plan-memory --emit=tile-ir | FileCheck %s --check-prefix=PLAN
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# pl.assemble into a tile (PyPTO's tile.assemble, `grid[0:1, :] = row` in a kernel): the source is a
# tile in the target's memory, of its dtype and rank, its valid region inside the target; the result
# is the target's buffer (plan-memory). In PTO a pto.subview window of the result at the offset and a
# pto.tmov of the source into it; the result shares the target's address, so nothing is copied first.
# Errors: assemble_into_tile_errors.py.
import pypto.language as pl


# PLAN: grid: pl.Tile{{\[\[}}8, 8], pl.FP32, pl.Mem.Vec, addr=[[G:[0-9]+]]{{]}} = pl.full(
# PLAN-NEXT: grid = pl.assemble(grid, pl.load(x, [0, 0], [1, 8]), [2, 0])
# PLAN-NEXT: both: pl.Tile{{\[\[}}8, 8], pl.FP32, pl.Mem.Vec, addr=[[G]]{{]}} = pl.tile.assemble(
# PTO: %grid = pto.alloc_tile addr = [[A:%c[0-9]+_i64]] :
# PTO: %both = pto.alloc_tile addr = [[A]] :
# PTO: %assemble_view = pto.subview %grid[%c2, %c0] sizes [1, 8] valid [%c1, %c8] : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, {{.*}}> -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8, v_row=1, v_col=8,
# PTO-NEXT: pto.tmov ins(%tile : {{.*}}) outs(%assemble_view :
# PTO-NOT: outs(%both
# PTO: %assemble_view_1 = pto.subview %both[%c5, %c0] sizes [1, 8] valid [%c1, %c8] :
# PTO-NEXT: pto.tmov ins(%tile_1 : {{.*}}) outs(%assemble_view_1 :
@pl.jit.incore
def ok(x: pl.Tensor[[1, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
    grid = pl.full([8, 8], dtype=pl.FP32, value=0.0)
    grid[2:3, :] = pl.load(x, [0, 0], [1, 8])
    both = pl.tile.assemble(grid, pl.load(x, [0, 0], [1, 8]), [5, 0])
    out = pl.store(both, [0, 0], out)
    return out
