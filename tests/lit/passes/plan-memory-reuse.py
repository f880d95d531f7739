# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,name-tile-operands,plan-memory --emit=tile-ir | FileCheck %s
# plan-memory packs tiles into buffers as PyPTO's MemoryReuse does: an elementwise result takes the
# buffer of an operand whose last use is that op; an operand still live later, a reduction's operand
# and a widening cast's operand keep their own buffers (r takes the dead h's, n the dead w's: largest
# first, first fit); a copy `x = y` shares y's buffer.
import pypto.language as pl


# CHECK-LABEL: def in_place(
@pl.jit.incore
def in_place(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    # CHECK: a: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(
    a = pl.load(x, [0, 0], [128, 128])
    # CHECK: b: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=65536] = pl.load(
    b = pl.load(x, [0, 0], [128, 128])
    # CHECK: c: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.add(a, b)
    c = pl.add(a, b)
    # CHECK: e: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.exp(c)
    e = pl.exp(c)
    y = pl.store(e, [0, 0], y)


# CHECK-LABEL: def operand_still_live(
@pl.jit.incore
def operand_still_live(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    # CHECK: a: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(
    a = pl.load(x, [0, 0], [64, 128])
    # CHECK: b: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec, addr=32768] = pl.load(
    b = pl.load(x, [64, 0], [64, 128])
    # CHECK: c: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec, addr=65536] = pl.add(a, b)
    c = pl.add(a, b)
    # CHECK: d: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.mul(c, a)
    d = pl.mul(c, a)
    y = pl.store(d, [0, 0], y)
    y = pl.store(b, [64, 0], y)


# CHECK-LABEL: def not_in_place(
@pl.jit.incore
def not_in_place(
    x: pl.Tensor[[64, 64], pl.FP16],
    y: pl.Out[pl.Tensor[[64, 1], pl.FP32]],
    z: pl.Out[pl.Tensor[[64, 64], pl.FP16]],
):
    # CHECK: h: pl.Tile{{\[\[}}64, 64], pl.FP16, pl.Mem.Vec, addr=0] = pl.load(
    h = pl.load(x, [0, 0], [64, 64])
    # CHECK: w: pl.Tile{{\[\[}}64, 64], pl.FP32, pl.Mem.Vec, addr=8192] = pl.cast(h, pl.FP32)
    w = pl.cast(h, pl.FP32)
    # CHECK: r: pl.Tile{{\[\[}}64, 1], pl.FP32, pl.Mem.Vec, addr=0] = pl.row_sum(w)
    r = pl.row_sum(w)
    y = pl.store(r, [0, 0], y)
    # CHECK: n: pl.Tile{{\[\[}}64, 64], pl.FP16, pl.Mem.Vec, addr=8192] = pl.load(
    n = pl.load(x, [0, 0], [64, 64])
    # CHECK: m: pl.Tile{{\[\[}}64, 64], pl.FP16, pl.Mem.Vec, addr=8192] = n
    m = n
    z = pl.store(m, [0, 0], z)


# CHECK-LABEL: def nested_operands(
@pl.jit.incore
def nested_operands(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    # CHECK: tile: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(x, [0, 0], [128, 128])
    # CHECK: tile_1: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=65536] = pl.load(x, [0, 0], [128, 128])
    # CHECK: tile_2: pl.Tile{{\[\[}}128, 128], pl.FP32, pl.Mem.Vec, addr=0] = pl.add(tile, tile_1)
    # CHECK: y = pl.store(tile_2, [0, 0], y)
    y = pl.store(pl.add(pl.load(x, [0, 0], [128, 128]), pl.load(x, [0, 0], [128, 128])), [0, 0], y)


# CHECK-LABEL: def expand_in_place(
@pl.jit.incore
def expand_in_place(
    x: pl.Tensor[[64, 128], pl.FP32],
    v: pl.Tensor[[64, 1], pl.FP32],
    y: pl.Out[pl.Tensor[[64, 128], pl.FP32]],
):
    # CHECK: s: pl.Tile{{\[\[}}64, 1], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(v
    s = pl.load(v, [0, 0], [64, 1])
    # CHECK: a: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec, addr=256] = pl.load(x
    a = pl.load(x, [0, 0], [64, 128])
    # CHECK: b: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec, addr=256] = pl.row_expand_mul(a, s)
    b = pl.row_expand_mul(a, s)
    y = pl.store(b, [0, 0], y)


# Both operands end at the op and s's buffer comes first: the result still takes p's.
# CHECK-LABEL: def expand_vector_apart(
@pl.jit.incore
def expand_vector_apart(
    v: pl.Tensor[[64, 1], pl.FP32],
    z: pl.Out[pl.Tensor[[64, 1], pl.FP32]],
):
    # CHECK: s: pl.Tile{{\[\[}}64, 1], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(v
    s = pl.load(v, [0, 0], [64, 1])
    # CHECK: p: pl.Tile{{\[\[}}64, 1], pl.FP32, pl.Mem.Vec, addr=256] = pl.load(v
    p = pl.load(v, [0, 0], [64, 1])
    # CHECK: q: pl.Tile{{\[\[}}64, 1], pl.FP32, pl.Mem.Vec, addr=256] = pl.row_expand_sub(p, s)
    q = pl.row_expand_sub(p, s)
    z = pl.store(q, [0, 0], z)
