# Near miss of no_dep_race.py: the same pl.no_dep(y) arguments, and `shift` depends on `scale`
# (deps=[t1]), so the explicit edge orders the two stores: clean over 50 seeds. The edge a program
# keeps beside pl.no_dep is its deps=, as in pypto-lib's moe combine (routed_y_buf rides pl.no_dep,
# ordered by the _cscatter_tid -> _cwait_tid chain).
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# CHECK: no hazard
# CHECK-NOT: error
# The marker changes no edge, so the IR holds the tensor itself.
# IR: y, t2 = pl.spmd_submit(self.shift, x, y, core_num=1, deps=[t1])
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
            y, t1 = pl.spmd_submit(self.scale, x, pl.no_dep(y), core_num=1)
            y, t2 = pl.spmd_submit(self.shift, x, pl.tensor.no_dep(y), core_num=1, deps=[t1])
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)
