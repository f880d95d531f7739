# pl.no_dep(y) as a kernel argument asserts that the call needs no dependency edge on `y`. ptodist never
# derives edges from tensors (outside a manual scope every submission finishes before the next
# statement; inside one only deps= orders tasks), so in a manual scope the marker hides nothing from
# check mode: `scale` and `shift` both store the row of `y` with no deps between them, and the
# write/write race is reported with both lines. no_dep_with_deps_clean.py is the near miss.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: write/write race on local GM data: rank {{[01]}}, vector core {{[01]}} (block 0/1 of {{scale|shift}}) writes bytes [0, 256) of 'y' in rank {{[01]}}'s local GM
# CHECK: note: also written by rank {{[01]}}, vector core {{[01]}} (block 0/1 of {{scale|shift}}) (pl.store), unordered with this write
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
        # LINE-DAG: no_dep_race.py:[[@LINE+1]]:13: {{error|note}}:
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
        # LINE-DAG: no_dep_race.py:[[@LINE+1]]:13: {{error|note}}:
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
            y, t2 = pl.spmd_submit(self.shift, x, pl.no_dep(y), core_num=1)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)
