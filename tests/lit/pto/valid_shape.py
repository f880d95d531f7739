# RUN: ptodist compile %s --program Partial --emit=pto | FileCheck %s
# RUN: ptodist compile %s --program InBody --emit=pto | FileCheck %s --check-prefix=BODY
# RUN: not ptodist compile %s --program RunTimeClamp --emit=pto 2>&1 | FileCheck %s --check-prefix=CLAMP
# Partially valid tiles as PyPTO writes them: the tile_buf type has dynamic valid dims (v_row=?, v_col=?)
# and the alloc_tile gives the extents as valid_row / valid_col operands; a load reads, and a store
# writes, the valid region only. An atomic-add store carries PTOAS's atomicType attribute.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Partial:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 100], pl.FP32],
        z: pl.Tensor[[pl.dynamic("R"), 64], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 100], pl.FP32]],
        acc: pl.InOut[pl.Tensor[[pl.dynamic("R"), 64], pl.FP32]],
        n: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[4, 100], pl.FP32]:
        # CHECK: %part = pto.alloc_tile addr = %c0_i64 valid_row = %c1 valid_col = %c100 : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=128, v_row=?, v_col=?,
        # CHECK: %rows = pto.alloc_tile addr = {{%c[0-9_a-z]+}} valid_row = %arg4 valid_col = %c64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=?, v_col=?,
        # CHECK: %edge = pto.alloc_tile addr = {{%c[0-9_a-z]+}} valid_row = %c1 valid_col = %c36 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64, v_row=?, v_col=?,
        # CHECK: %x_pview = pto.partition_view %x_view, offsets = [%c3, %c0], sizes = [%c1, %c100] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x100xf32>
        # CHECK-NEXT: pto.tload ins(%x_pview : !pto.partition_tensor_view<1x100xf32>) outs(%part : !pto.tile_buf<{{.*}}v_row=?, v_col=?
        part = pl.load(x, [3, 0], [8, 128], valid_shape=[1, 100])
        # CHECK-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%c0, %c0], sizes = [%c1, %c100] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x100xf32>
        # CHECK-NEXT: pto.tstore ins(%part : {{.*}}) outs(%out_pview : !pto.partition_tensor_view<1x100xf32>)
        out = pl.store(part, [0, 0], out)
        # A run-time valid extent (a scalar parameter): `?` in the partition view type.
        # CHECK-NEXT: %z_pview = pto.partition_view %z_view, offsets = [%c0, %c0], sizes = [%arg4, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x64xf32>
        # CHECK-NEXT: pto.tload ins(%z_pview : !pto.partition_tensor_view<?x64xf32>) outs(%rows :
        rows = pl.load(z, [0, 0], [16, 64], valid_shape=[n, 64])
        # CHECK-NEXT: %acc_pview = pto.partition_view %acc_view, offsets = [%c0, %c0], sizes = [%arg4, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<?x64xf32>
        # CHECK-NEXT: pto.tstore ins(%rows : {{.*}}) outs(%acc_pview : !pto.partition_tensor_view<?x64xf32>) {atomicType = #pto<atomic_type atomic_add>}
        acc = pl.store(rows, [0, 0], acc, atomic=pld.AtomicType.Add)
        # clamp=True with constant offsets: the cut at the tensor's edge (100 - 64 = 36 columns) is static.
        # CHECK-NEXT: %x_pview_1 = pto.partition_view %x_view, offsets = [%c0, %c64], sizes = [%c1, %c36] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x36xf32>
        edge = pl.load(x, [0, 64], [1, 64], clamp=True)
        out = pl.assemble(out, edge, [0, 64])
        return out


@pl.program
class InBody:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        inp: pl.Tensor[[1, 200], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 200], pl.FP32]],
    ) -> pl.Tensor[[1, 200], pl.FP32]:
        # A ragged tail computed in the loop (PyPTO's staging idiom): the tile is allocated at its
        # definition, after its valid extent.
        # BODY-NOT: pto.alloc_tile
        # BODY: scf.for %col = %c0 to %c200 step %c64 {
        # BODY-NEXT: %v = arith.subi %c200, %col : index
        # BODY-NEXT: %min = arith.minsi %c64, %v : index
        # BODY-NEXT: %local = pto.alloc_tile addr = %c0_i64 valid_row = %c1 valid_col = %min : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=64, v_row=?, v_col=?,
        # BODY-NEXT: %inp_pview = pto.partition_view %inp_view, offsets = [%c0, %col], sizes = [%c1, %min] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x?xf32>
        # BODY-NEXT: pto.tload ins(%inp_pview : !pto.partition_tensor_view<1x?xf32>) outs(%local :
        # BODY-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%c0, %col], sizes = [%c1, %min]
        # BODY-NEXT: pto.tstore ins(%local : {{.*}}) outs(%out_pview : !pto.partition_tensor_view<1x?xf32>)
        for col in pl.range(0, 200, 64):
            valid = pl.min(64, 200 - col)
            local = pl.load(inp, [0, col], [1, 64], valid_shape=[1, valid])
            out = pl.store(local, [0, col], out)
        return out


@pl.program
class RunTimeClamp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        z: pl.Tensor[[pl.dynamic("R"), 64], pl.FP32],
        out: pl.Out[pl.Tensor[[pl.dynamic("R"), 64], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[pl.dynamic("R"), 64], pl.FP32]:
        # CLAMP: valid_shape.py:[[@LINE+1]]:{{[0-9]+}}: error: pl.load: clamp=True with a run-time offset or tensor dim has no PTO lowering yet
        t = pl.load(z, [row, 0], [16, 64], clamp=True)
        out = pl.store(t, [row, 0], out)
        return out
