# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,plan-memory --emit=tile-ir | FileCheck %s --check-prefix=PLAN
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# pl.assemble into a tile (PyPTO's tile.assemble, `grid[0:1, :] = row` in a kernel): the source is a
# tile in the target's memory, of its dtype and rank, its valid region inside the target; the result
# is the target's buffer (plan-memory). Its PTO form (pto.subview + pto.tmov) is not written yet.
# Errors: assemble_into_tile_errors.py.
import pypto.language as pl


# PLAN: grid: pl.Tile{{\[\[}}8, 8], pl.FP32, pl.Mem.Vec, addr=[[G:[0-9]+]]{{]}} = pl.full(
# PLAN-NEXT: grid = pl.assemble(grid, pl.load(x, [0, 0], [1, 8]), [2, 0])
# PLAN-NEXT: both: pl.Tile{{\[\[}}8, 8], pl.FP32, pl.Mem.Vec, addr=[[G]]{{]}} = pl.tile.assemble(
# PTO: error: pl.assemble: assembling into a tile has no PTO lowering yet (pto.subview + pto.tmov)
@pl.jit.incore
def ok(x: pl.Tensor[[1, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
    grid = pl.full([8, 8], dtype=pl.FP32, value=0.0)
    grid[2:3, :] = pl.load(x, [0, 0], [1, 8])
    both = pl.tile.assemble(grid, pl.load(x, [0, 0], [1, 8]), [5, 0])
    out = pl.store(both, [0, 0], out)
    return out
