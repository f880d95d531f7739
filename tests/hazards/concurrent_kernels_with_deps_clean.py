# Near miss of concurrent_kernels_one_tensor.py: the second submit of the manual scope depends on the
# first (deps=[t1]), so `shift` starts after `scale` ended and its store is ordered after scale's.
# Clean over 50 seeds.
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# CHECK: no hazard
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class TwoKernels:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        row = pl.load(x, [0, 0], [1, SIZE])
        doubled = pl.muls(row, 2.0)
        y = pl.store(doubled, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def shift(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        row = pl.load(x, [0, 0], [1, SIZE])
        moved = pl.adds(row, 1.0)
        y = pl.store(moved, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        with pl.manual_scope():
            y, t1 = pl.spmd_submit(self.scale, x, y, core_num=1)
            y, t2 = pl.spmd_submit(self.shift, x, y, core_num=1, deps=[t1])
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)
