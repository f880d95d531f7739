# RUN: ptodist compile %s --program TileReshape --emit=pto | FileCheck %s
# RUN: not ptodist compile %s --program TensorReshape --emit=pto 2>&1 | FileCheck %s --check-prefix=ERR
# pl.tile.reshape in PTO: plan-memory gives the result a tile of its own (the runtime copies), so the
# source is viewed under the new shape (pto.treshape, PyPTO's spelling) and copied into it (pto.tmov).
# A reshape of a GM tensor has no PTO lowering yet and says so.
import pypto.language as pl


@pl.program
class TileReshape:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 16], pl.FP32]],
    ) -> pl.Tensor[[1, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64])
        tmp = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        s = pl.tile.row_sum(t, tmp)
        # CHECK: pto.trowsum ins(%t, %tmp : {{.*}}) outs(%s : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1,
        # CHECK-NEXT: %row_view = pto.treshape %s : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, {{.*}}> -> !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, {{.*}}>
        # CHECK-NEXT: pto.tmov ins(%row_view : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, {{.*}}>) outs(%row : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16,
        # CHECK-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%c0, %c0], sizes = [%c1, %c16]
        # CHECK-NEXT: pto.tstore ins(%row :
        row = pl.tile.reshape(s, [1, 16])
        out = pl.store(row, [0, 0], out)
        return out


@pl.program
class TensorReshape:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        # ERR: reshape.py:[[@LINE+1]]:16: error: pl.reshape: has no PTO lowering in a kernel yet
        flat = pl.reshape(x, [1, 1024])
        t = pl.load(flat, [0, 0], [1, 1024])
        out = pl.store(pl.tile.reshape(t, [16, 64]), [0, 0], out)
        return out
