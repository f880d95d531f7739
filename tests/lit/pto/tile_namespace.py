# RUN: ptodist compile %s --emit=pto | FileCheck %s
# PTO text of PyPTO's pl.tile.* spellings and unified scalar ops: pl.tile.load with shapes=,
# pl.tile.full, pl.tile.row_sum(tile, tmp_tile), pl.add(tile, scalar) as tadds, pl.cast of a scalar,
# pl.min, pl.tile.store.
import pypto.language as pl

R = 4
C = 8


@pl.program
class TileNamespace:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        sums: pl.Out[pl.Tensor[[R, 1], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[R, 1], pl.FP32]:
        # CHECK: pto.tload
        t = pl.tile.load(x, offsets=[0, 0], shapes=[R, C])
        # CHECK: pto.texpands
        ones = pl.tile.full([R, C], dtype=pl.FP32, value=1.0)
        # CHECK: pto.tadd
        t = pl.tile.add(t, ones)
        # CHECK: [[M:%[a-z_0-9]+]] = arith.minsi
        # CHECK: arith.sitofp
        # CHECK: pto.tadds
        t = pl.add(t, pl.cast(pl.min(n, 3), pl.FP32))
        tmp = pl.tile.create([R, C], dtype=pl.FP32)
        # CHECK: pto.trowsum ins(%t, %tmp :
        s = pl.tile.row_sum(t, tmp)
        # CHECK: pto.tstore
        return pl.tile.store(s, [0, 0], sums)
