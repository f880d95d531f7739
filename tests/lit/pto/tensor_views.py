# RUN: ptodist compile %s --emit=pto | FileCheck %s
# PTO text of GM tensors as values and on-core arrays in a kernel: pl.slice as a sub-view
# (pto.addptr + pto.make_tensor_view with the parent's strides), pl.assemble of a tile as a store at
# the offset, pl.tensor.dim as the dim itself, pl.array.* as PTOAS local arrays (PyPTO's lowering).
import pypto.language as pl

C = 32


@pl.program
class TensorViews:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[pl.dynamic("R"), C], pl.FP32],
        y: pl.Out[pl.Tensor[[pl.dynamic("R"), C], pl.FP32]],
        counts: pl.Out[pl.Tensor[[4, 1], pl.INT32]],
    ) -> pl.Tensor[[pl.dynamic("R"), C], pl.FP32]:
        rows = pl.tensor.dim(x, 0)
        hist = pl.array.create(4, pl.INT32)
        for e in pl.range(4):
            hist[e] = 0
        for row in pl.range(rows):
            x_row = pl.slice(x, [1, C], [row, 0])
            t = pl.load(x_row, [0, 0], [1, C])
            t = pl.add(t, 1.0)
            y = pl.assemble(y, t, [row, 0])
            k = row % 4
            hist[k] = hist[k] + 1
        for e in pl.range(4):
            pl.write(counts, [e, 0], hist[e])
        return y


# CHECK: func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i32>, %arg3: index)
# CHECK: %hist = pto.declare_local_array -> !pto.local_array<4xi32>
# CHECK-NEXT: scf.for %e = %c0 to %c4 step %c1 {
# CHECK-NEXT: pto.local_array_set %hist[%e], %c0_i32 : !pto.local_array<4xi32>, i32
# The row count is the dynamic dim's index argument.
# CHECK: scf.for %row = %c0 to %arg3 step %c1 {
# CHECK-NEXT: %x_row_off = arith.muli %row, %c32 : index
# CHECK-NEXT: %x_row_ptr = pto.addptr %arg0, %x_row_off : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %x_row_view = pto.make_tensor_view %x_row_ptr, shape = [%c1, %c32], strides = [%c32, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %x_row_pview = pto.partition_view %x_row_view, offsets = [%c0, %c0], sizes = [%c1, %c32]
# CHECK-NEXT: pto.tload ins(%x_row_pview : !pto.partition_tensor_view<1x32xf32>) outs(%t :
# CHECK-NEXT: pto.tadds
# CHECK-NEXT: %y_pview = pto.partition_view %y_view, offsets = [%row, %c0], sizes = [%c1, %c32]
# CHECK-NEXT: pto.tstore ins(%t : {{.*}}) outs(%y_pview : !pto.partition_tensor_view<1x32xf32>)
# CHECK-NEXT: %k = arith.remsi %row, %c4 : index
# CHECK-NEXT: %elem = pto.local_array_get %hist[%k] : !pto.local_array<4xi32> -> i32
# CHECK-NEXT: %v = arith.addi %elem, %c1_i32 : i32
# CHECK-NEXT: pto.local_array_set %hist[%k], %v : !pto.local_array<4xi32>, i32
# CHECK: %elem_1 = pto.local_array_get %hist[%e_1] : !pto.local_array<4xi32> -> i32
# CHECK-NEXT: pto.store_scalar %elem_1, %arg2[
