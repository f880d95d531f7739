# A GM-to-GM slice assignment in a kernel (pypto-lib's prefill read-back `out[r : r + 16, 0:D] =
# window[r : r + 16, 0:D]`) and a tensor-level op on a slice, as PyPTO's ConvertTensorToTileOps lowers
# them: the source slice is a pto.tload of its region into a Vec tile, the assignment a pto.tstore of
# that tile; the slice extent `(r + 16) - r` folds to 16, so the tile is static.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/src.npy "np.arange(2*37*64, dtype=np.float32).reshape(2, 37, 64) / 8"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(2*4*64, dtype=np.float32).reshape(2, 4, 64) - 7"
# RUN: ptodist run %s --ranks 2 --in src=%t/src.npy --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t out "src"
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "x + 1"
# RUN: ptodist compile %s --emit=tile-ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 37
D = 64
TILE = 16


@pl.jit.incore
def copy_rows(
    src: pl.Tensor[[ROWS, D], pl.FP32],
    out: pl.Out[pl.Tensor[[ROWS, D], pl.FP32]],
    x: pl.Tensor[[4, D], pl.FP32],
    y: pl.Out[pl.Tensor[[4, D], pl.FP32]],
):
    full = (ROWS // TILE) * TILE
    # IR: for r in pl.range(0, 32, 16):
    # IR-NEXT: tile: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(src, [r, 0], [16, 64])
    # IR-NEXT: out = pl.assemble(out, tile, [r, 0])
    for r in pl.range(0, full, TILE):
        out[r : r + TILE, 0:D] = src[r : r + TILE, 0:D]
    # IR: tile_1: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(src, [r, 0], [1, 64])
    for r in pl.range(full, ROWS):
        out[r : r + 1, 0:D] = src[r : r + 1, 0:D]
    # The sum of a slice is a tile: the slice is a load where it is bound (as PyPTO lowers
    # tensor.slice), the sum is stored by the assemble.
    # IR: x_row: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(x, [row, 0], [1, 64])
    # IR-NEXT: y_row: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec, addr=0] = pl.adds(x_row, 1.0)
    # IR-NEXT: y = pl.assemble(y, y_row, [row, 0])
    for row in pl.range(4):
        x_row = pl.slice(x, [1, D], [row, 0])
        y_row = pl.add(x_row, 1.0)
        y = pl.assemble(y, y_row, [row, 0])
    return out, y


# CHECK: %tile = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64,
# CHECK: scf.for %r = %c0 to %c32 step %c16 {
# CHECK-NEXT: %src_pview = pto.partition_view %src_view, offsets = [%r, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.tload ins(%src_pview : !pto.partition_tensor_view<16x64xf32>) outs(%tile : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64,
# CHECK-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%r, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.tstore ins(%tile : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, {{.*}}>) outs(%out_pview : !pto.partition_tensor_view<16x64xf32>)
# CHECK-NEXT: }
# CHECK-NEXT: scf.for %r_1 = %c32 to %c37 step %c1 {
# CHECK-NEXT: %src_pview_1 = pto.partition_view %src_view, offsets = [%r_1, %c0], sizes = [%c1, %c64]
# CHECK-NEXT: pto.tload ins(%src_pview_1 : !pto.partition_tensor_view<1x64xf32>) outs(%tile_1 :
# CHECK-NEXT: %out_pview_1 = pto.partition_view %out_view, offsets = [%r_1, %c0], sizes = [%c1, %c64]
# CHECK-NEXT: pto.tstore ins(%tile_1 : {{.*}}) outs(%out_pview_1 : !pto.partition_tensor_view<1x64xf32>)
# CHECK: pto.tload ins(%x_pview : !pto.partition_tensor_view<1x64xf32>) outs(%x_row :
# CHECK-NEXT: pto.tadds ins(%x_row, %cst : {{.*}}, f32) outs(%y_row :
# CHECK-NEXT: %y_pview = pto.partition_view %y_view, offsets = [%row, %c0], sizes = [%c1, %c64]
# CHECK-NEXT: pto.tstore ins(%y_row : {{.*}}) outs(%y_pview : !pto.partition_tensor_view<1x64xf32>)


@pl.jit
def per_rank(
    src: pl.Tensor[[ROWS, D], pl.FP32],
    out: pl.Out[pl.Tensor[[ROWS, D], pl.FP32]],
    x: pl.Tensor[[4, D], pl.FP32],
    y: pl.Out[pl.Tensor[[4, D], pl.FP32]],
):
    return copy_rows(src, out, x, y)


@pl.jit.host
def gm_assemble(
    src: pl.Tensor[[N_RANKS, ROWS, D], pl.FP32],
    out: pl.Out[pl.Tensor[[N_RANKS, ROWS, D], pl.FP32]],
    x: pl.Tensor[[N_RANKS, 4, D], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, 4, D], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(src[r], out[r], x[r], y[r], device=r)
