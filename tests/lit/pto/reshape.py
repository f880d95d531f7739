# RUN: ptodist compile %s --program TileReshape --emit=pto | FileCheck %s
# RUN: ptodist compile %s --program TensorReshape --emit=pto | FileCheck %s --check-prefix=TENSOR
# RUN: not ptodist compile %s --program SliceReshape --emit=pto 2>&1 | FileCheck %s --check-prefix=ERR
# pl.tile.reshape in PTO: plan-memory gives the result a tile of its own (the runtime copies), so the
# source is viewed under the new shape (pto.treshape, PyPTO's spelling) and copied into it (pto.tmov).
# pl.reshape of a whole GM tensor is a new tensor view of its pointer; of a slice (strided rows), an error.
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
        # A whole tensor reshaped is a view of its pointer with row-major strides.
        # TENSOR: %flat_view = pto.make_tensor_view %arg0, shape = [%c1, %c1024], strides = [%c1024, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
        # TENSOR-NEXT: %flat_pview = pto.partition_view %flat_view, offsets = [%c0, %c0], sizes = [%c1, %c1024]
        flat = pl.reshape(x, [1, 1024])
        t = pl.load(flat, [0, 0], [1, 1024])
        out = pl.store(pl.tile.reshape(t, [16, 64]), [0, 0], out)
        return out


@pl.program
class SliceReshape:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 256], pl.FP32]],
    ) -> pl.Tensor[[1, 256], pl.FP32]:
        half = pl.slice(x, [4, 32], [0, 0])
        # ERR: reshape.py:[[@LINE+1]]:27: error: pl.reshape: 'half' is a slice whose elements are not one contiguous run
        flat = pl.reshape(half, [1, 128])
        t = pl.load(flat, [0, 0], [1, 128])
        out = pl.store(t, [0, 0], out)
        return out
