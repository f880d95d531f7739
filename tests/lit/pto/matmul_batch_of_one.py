# RUN: ptodist compile %s --emit=pto | FileCheck %s
# pypto-lib's routed-expert split-K matmul (expert_routed.py) as PTO: the [1, M, N] accumulator the
# [M, N] Acc tile, the [1, N, K] weight slice of a 3-D tensor a 3-D partition view loaded into a [N, K]
# Mat tile and read as [K, N] through a transposed view at the same address (PyPTO's tile.transpose_view
# after FlattenTileNdTo2D), moved to Left / Right, pto.tmatmul then pto.tmatmul.acc, and the product
# stored from Acc into its column slice of the output.
import pypto.language as pl

E = 4
M = 16
K = 64
KC = 32
N = 16


@pl.program
class Experts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[M, K], pl.INT8],
        w: pl.Tensor[[E, N, K], pl.INT8],
        e: pl.Scalar[pl.INDEX],
        y: pl.Out[pl.Tensor[[M, 2 * N], pl.INT32]],
    ):
        acc = pl.create_tensor([1, M, N], dtype=pl.INT32)
        for kb in pl.range(K // KC):
            k0 = kb * KC
            xk = x[0:M, k0 : k0 + KC]
            wk = w[e : e + 1, 0:N, k0 : k0 + KC]
            if kb == 0:
                acc = pl.matmul(xk, wk, b_trans=True, out_dtype=pl.INT32)
            else:
                acc = pl.matmul_acc(acc, xk, wk, b_trans=True)
        y[:, N : 2 * N] = pl.reshape(acc, [M, N])
        return y


# CHECK: %w_view = pto.make_tensor_view %arg1, shape = [%c4, %c16, %c64], strides = [%c1024, %c64, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?x?xi8>
# CHECK: %acc = pto.alloc_tile addr = {{.*}} : !pto.tile_buf<loc=acc, dtype=i32, rows=16, cols=16,
# CHECK: %w_mat = pto.alloc_tile addr = %[[W:[a-z0-9_]+]] : !pto.tile_buf<loc=mat, dtype=i8, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major,
# CHECK-NEXT: %wk = pto.alloc_tile addr = %[[W]] : !pto.tile_buf<loc=mat, dtype=i8, rows=32, cols=16, v_row=32, v_col=16, blayout=row_major, slayout=col_major,
# CHECK: scf.for %kb
# CHECK: %w_pview = pto.partition_view %w_view, offsets = [%arg2, %c0, %k0], sizes = [%c1, %c16, %c32] : !pto.tensor_view<?x?x?xi8> -> !pto.partition_tensor_view<1x16x32xi8>
# CHECK-NEXT: pto.tload ins(%w_pview : !pto.partition_tensor_view<1x16x32xi8>) outs(%w_mat :
# CHECK: scf.if
# CHECK-NEXT: pto.tmov ins(%xk : {{.*}} outs(%[[L0:[a-z_0-9]+]] : !pto.tile_buf<loc=left,
# CHECK-NEXT: pto.tmov ins(%wk : {{.*}} outs(%[[R0:[a-z_0-9]+]] : !pto.tile_buf<loc=right, dtype=i8, rows=32, cols=16,
# CHECK-NEXT: pto.tmatmul ins(%[[L0]], %[[R0]] : {{.*}} outs(%acc :
# CHECK: } else {
# CHECK: pto.tmatmul.acc ins(%acc, %{{.*}}, %{{.*}} : {{.*}} outs(%acc :
# CHECK: %y_pview = pto.partition_view %y_view, offsets = [%c0, %c16], sizes = [%c16, %c16]
# CHECK-NEXT: pto.tstore ins(%acc : !pto.tile_buf<loc=acc, dtype=i32, rows=16, cols=16, {{.*}} outs(%y_pview :
