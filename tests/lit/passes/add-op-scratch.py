# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,name-tile-operands,add-op-scratch --emit=tile-ir | FileCheck %s
# add-op-scratch: a high-precision rsqrt of a tile (here nested in a reshape, as pypto-lib's hc_pre.py
# writes it, so name-tile-operands named it first) and of a GM tensor (a tile after
# convert-tensor-to-tile) gets a scratch tile of its operand's shape and dtype, passed to
# pl.tile.rsqrt; an rsqrt without the flag and one given its scratch by the program are left alone.
import pypto.language as pl


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[4, 8], pl.FP32],
    y: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
    z: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
    w: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
):
    t = pl.load(x, [0, 0], [4, 8])
    # CHECK: [[A:tile[_0-9]*]] = pl.adds(t, 1.0)
    # CHECK-NEXT: [[TMP:rsqrt_tmp[_0-9]*]] = pl.create_tile([4, 8], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: [[R:tile[_0-9]*]] = pl.tile.rsqrt([[A]], tmp=[[TMP]])
    # CHECK-NEXT: r = pl.reshape([[R]], [8, 4])
    r = pl.reshape(pl.rsqrt(pl.adds(t, 1.0), high_precision=True), [8, 4])
    y = pl.store(r, [0, 0], y)
    # CHECK: [[G:tile[_0-9]*]] = pl.load(x, [0, 0], [4, 8])
    # CHECK-NEXT: [[TMP2:rsqrt_tmp[_0-9]*]] = pl.create_tile([4, 8], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: g = pl.tile.rsqrt([[G]], tmp=[[TMP2]])
    g = pl.rsqrt(x, high_precision=True)
    z = pl.assemble(z, g, [0, 0])
    # CHECK: p = pl.rsqrt(t)
    p = pl.rsqrt(t)
    # CHECK: q = pl.tile.rsqrt(p, tmp=own)
    own = pl.tile.create([4, 8], dtype=pl.FP32)
    q = pl.tile.rsqrt(p, own)
    w = pl.store(q, [0, 0], w)
