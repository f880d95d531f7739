# RUN: ptodist compile %s --emit=pto | FileCheck %s
# A tensor-level split-K matmul in a kernel (pypto-lib's hc_pre / gate idiom) as PTO: the accumulator an
# Acc tile, the lhs a partially valid Mat load (valid_row / valid_col), the b_trans rhs a DN view of its
# region loaded into a Mat tile of the transposed (ZN) fractal, both moved to Left / Right, pto.tmatmul
# in the first K step and pto.tmatmul.acc after, the product stored from Acc.
import pypto.language as pl

T = 12
M = 16
K = 64
KC = 32
N = 16


@pl.program
class SplitK:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[T, K], pl.FP16],
        w: pl.Tensor[[N, K], pl.FP16],
        y: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ):
        acc = pl.create_tensor([M, N], dtype=pl.FP32)
        for kb in pl.range(K // KC):
            k0 = kb * KC
            xc = pl.slice(x, [M, KC], [0, k0], valid_shape=[T, KC])
            wc = w[0:N, k0 : k0 + KC]
            if kb == 0:
                acc = pl.matmul(xc, wc, b_trans=True, out_dtype=pl.FP32)
            else:
                acc = pl.matmul_acc(acc, xc, wc, b_trans=True)
        y = pl.assemble(y, acc, [0, 0])
        return y


# CHECK: %acc = pto.alloc_tile addr = {{.*}} : !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16,
# CHECK: %xc = pto.alloc_tile addr = {{.*}} valid_row = %c12 valid_col = %c32 : !pto.tile_buf<loc=mat, dtype=f16, rows=16, cols=32, v_row=?, v_col=?, blayout=col_major, slayout=row_major,
# CHECK: %wc = pto.alloc_tile addr = {{.*}} : !pto.tile_buf<loc=mat, dtype=f16, rows=32, cols=16, v_row=32, v_col=16, blayout=row_major, slayout=col_major,
# CHECK: scf.for %kb
# CHECK: %x_pview = pto.partition_view %x_view, offsets = [%c0, %k0], sizes = [%c12, %c32] {{.*}} -> !pto.partition_tensor_view<12x32xf16>
# CHECK-NEXT: pto.tload ins(%x_pview {{.*}} outs(%xc :
# CHECK: %w_region_ptr = pto.addptr %arg1,
# CHECK: %w_region_t_view = pto.make_tensor_view %w_region_ptr, shape = [%c32, %c16], strides = [%c1, %c64] {layout = #pto.layout<dn>}
# CHECK-NEXT: %w_region_t_pview = pto.partition_view %w_region_t_view, offsets = [%c0, %c0], sizes = [%c32, %c16]
# CHECK-NEXT: pto.tload ins(%w_region_t_pview {{.*}} outs(%wc :
# CHECK: scf.if
# CHECK-NEXT: pto.tmov ins(%xc : {{.*}} outs(%[[L0:[a-z_0-9]+]] : !pto.tile_buf<loc=left,
# CHECK-NEXT: pto.tmov ins(%wc : {{.*}} outs(%[[R0:[a-z_0-9]+]] : !pto.tile_buf<loc=right,
# CHECK-NEXT: pto.tmatmul ins(%[[L0]], %[[R0]] : {{.*}} outs(%acc :
# CHECK: } else {
# CHECK: pto.tmatmul.acc ins(%acc, %{{.*}}, %{{.*}} : {{.*}} outs(%acc :
# CHECK: pto.tstore ins(%acc : !pto.tile_buf<loc=acc,
