# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,name-tile-operands,add-op-scratch --emit=tile-ir | FileCheck %s
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# add-op-scratch: a row reduction of a tile without a tmp_tile (and a GM tensor's, a tile after
# convert-tensor-to-tile) gets a scratch tile of its operand's shape with the last dim padded to 128, as
# PyPTO's MakeReductionConv makes it; one given its tmp_tile by the program is left alone.
import pypto.language as pl


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[4, 8], pl.FP32],
    y: pl.Out[pl.Tensor[[4, 1], pl.FP32]],
    z: pl.Out[pl.Tensor[[4, 1], pl.FP32]],
    w: pl.Out[pl.Tensor[[4, 1], pl.FP32]],
):
    t = pl.load(x, [0, 0], [4, 8])
    # CHECK: [[TMP:tmp_tile[_0-9]*]] = pl.create_tile([4, 128], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: s = pl.row_sum(t, tmp_tile=[[TMP]])
    # PTO: pto.trowsum ins(%t, %tmp_tile : {{.*}}) outs(%s :
    s = pl.row_sum(t)
    y = pl.store(s, [0, 0], y)
    # CHECK: [[G:tile[_0-9]*]] = pl.load(x, [0, 0], [4, 8])
    # CHECK-NEXT: [[TMP2:tmp_tile[_0-9]*]] = pl.create_tile([4, 128], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: m = pl.row_max([[G]], tmp_tile=[[TMP2]])
    # PTO: pto.trowmax ins(%{{[a-z_0-9]+}}, %tmp_tile_1 : {{.*}}) outs(%m :
    m = pl.row_max(x)
    z = pl.assemble(z, m, [0, 0])
    # CHECK: n = pl.row_max(t, tmp_tile=own)
    own = pl.tile.create([4, 8], dtype=pl.FP32)
    n = pl.row_max(t, own)
    w = pl.store(n, [0, 0], w)
