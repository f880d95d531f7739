# The pl.tile.* spellings of PyPTO (tile_ops.py) with their own signatures: pl.tile.full,
# pl.tile.create, pl.tile.row_sum(tile, tmp_tile), pl.tile.reshape, pl.tile.load with `shapes=`,
# pl.tile.store. Golden values from numpy; the printed IR keeps each call's spelling; PTO text.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) / 4"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# sums[r] = row sums of x[r] + 1 (a pl.tile.full of ones added first), as a [1, 4] row
# RUN: %numpy %S/Inputs/npy.py check %t sums "(x + 1).sum(axis=2).reshape(2, 1, 4)"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
# pl.tile.reshape is a pto.treshape view copied into the result's own tile (tests/lit/pto/reshape.py);
# tests/lit/pto/tile_namespace.py checks the PTO text of the other pl.tile.* ops.
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: %row_view = pto.treshape %s :
# PTO-NEXT: pto.tmov ins(%row_view :
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
R = 4
C = 8


@pl.program
class TileNamespace:
    @pl.function(type=pl.FunctionType.InCore)
    def row_sums(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        sums: pl.Out[pl.Tensor[[1, R], pl.FP32]],
    ) -> pl.Tensor[[1, R], pl.FP32]:
        # CHECK: t = pl.tile.load(x, [0, 0], [R, C])
        t = pl.tile.load(x, offsets=[0, 0], shapes=[R, C])
        # CHECK: ones = pl.tile.full([R, C], pl.FP32, 1.0)
        ones = pl.tile.full([R, C], dtype=pl.FP32, value=1.0)
        t = pl.tile.add(t, ones)
        # CHECK: tmp = pl.tile.create([R, C], pl.FP32, target_memory=pl.Mem.Vec)
        tmp = pl.tile.create([R, C], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        # CHECK: = pl.tile.row_sum(t, tmp)
        s: pl.Tile[[R, 1], pl.FP32] = pl.tile.row_sum(t, tmp)
        # CHECK: = pl.tile.reshape(s, [1, R])
        row: pl.Tile[[1, R], pl.FP32] = pl.tile.reshape(s, [1, R])
        return pl.tile.store(row, [0, 0], sums)

    @pl.function(type=pl.FunctionType.Orchestration)
    def child(
        self,
        x: pl.Tensor[[R, C], pl.FP32],
        sums: pl.Out[pl.Tensor[[1, R], pl.FP32]],
    ) -> pl.Tensor[[1, R], pl.FP32]:
        sums = self.row_sums(x, sums)
        return sums

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        x: pl.Tensor[[N_RANKS, R, C], pl.FP32],
        sums: pl.Out[pl.Tensor[[N_RANKS, 1, R], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.child(x[r], sums[r], device=r)
