# A Group's AIV kernel pops from a cross-core pipe that its AIC kernel never pushes into (the push is
# missing): check mode must report the deadlock at the pop, and the watchdog of the fast runtime must
# report the blocked pop instead of hanging.
# RUN: %expect-exit 3 ptodist run %s --entry orchestrator --ranks 1 --mode check --seed 1 > %t
# RUN: FileCheck %s < %t
# RUN: %expect-exit 3 ptodist run %s --entry orchestrator --ranks 1 --watchdog 0.5 > %t.fast 2>&1
# RUN: FileCheck %s --check-prefix=FAST < %t.fast
# CHECK: error: check: deadlock: every core is blocked and no transfer is in flight
# CHECK: waits in pl.tpop_from_aic on a push into pipe id 0 (cube to vector)
# FAST: blocked in pl.tpop_from_aic
import pypto.language as pl


@pl.program
class PopWithoutPush:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.aic_initialize_pipe(dir_mask=1, slot_size=1024)

    @pl.function(type=pl.FunctionType.AIV)
    def vector(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.aiv_initialize_pipe(dir_mask=1, slot_size=1024)
        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tpop_from_aic(split=0)
        pl.tfree_to_aic(t)
        pl.store(t, [0, 0], y)

    @pl.function(type=pl.FunctionType.Group)
    def group(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        self.cube(y)
        self.vector(y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        self.group(y)
