# RUN: ptodist compile %s --emit=pto | FileCheck %s
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=CUBE
# The sorting ops and the tile-scalar max/min in PyPTO's PTO text: pto.tsort32 ins(src, idx), format1
# pto.tmrgsort ins(src, block_len : ..., i32), format2 with tmp and {exhausted = false} and the
# executed-count vector in outs; pto.tmaxs / pto.tmins; an INT8 matmul into an i32 accumulator. The
# kernel needs both cores, so it is split: the matmul is in kernel_aic, emitted first.
import pypto.language as pl


@pl.program
class Sorts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[1, 128], pl.FP32],
        a: pl.Tensor[[16, 32], pl.INT8],
        b: pl.Tensor[[32, 16], pl.INT8],
        y: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
        z: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
        c: pl.Out[pl.Tensor[[1, 128], pl.FP32]],
    ):
        v = pl.load(x, [0, 0], [1, 128])
        i = pl.tile.arange(0, [1, 128], dtype=pl.UINT32)
        # CHECK: pto.tsort32 ins(%v, %i : !pto.tile_buf<{{.*}}f32{{.*}}>, !pto.tile_buf<{{.*}}ui32{{.*}}>) outs(%s :
        s = pl.tile.sort32(v, i)
        # CHECK: pto.tmrgsort ins(%s, %c64_i32 : !pto.tile_buf<{{.*}}>, i32) outs(%r :
        r = pl.tile.mrgsort(s, block_len=64)
        tmp = pl.tile.create([1, 512], pl.FP32)
        # CHECK: %[[EX:.*]] = arith.constant dense<0> : vector<4xi16>
        # CHECK: pto.tmrgsort ins(%r, %r, %tmp {exhausted = false} : {{.*}}) outs(%m, %[[EX]] : {{.*}}, vector<4xi16>)
        m = pl.tile.mrgsort(r, r, tmp=tmp)
        y = pl.store(m, [0, 0], y)
        # CHECK: pto.tmins ins(%v,
        # CHECK: pto.tmaxs ins(
        w = pl.maximum(pl.minimum(v, 1.0), -1.0)
        c = pl.store(w, [0, 0], c)
        lhs = pl.move(pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        rhs = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        # CUBE-LABEL: func.func @kernel_aic(
        # CUBE: pto.tmatmul ins(%lhs, %rhs : {{.*}}) outs(%acc : !pto.tile_buf<{{.*}}i32
        acc = pl.matmul(lhs, rhs, out_dtype=pl.INT32)
        z = pl.store(acc, [0, 0], z)
        return y, z, c
