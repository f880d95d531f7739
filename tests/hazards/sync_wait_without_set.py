# A Group's AIC kernel waits for cross-core event 4 (pl.system.sync_wait), which its AIV kernel never
# raises (the pl.system.sync_set is missing): check mode must report the deadlock at the wait, and the
# watchdog of the fast runtime the blocked wait, instead of hanging. In one mixed kernel, whose cube and
# vector code ptodist runs in program order, a wait before any set is reported at once.
# RUN: %expect-exit 3 ptodist run %s --entry orchestrator --ranks 1 --mode check --seed 1 > %t
# RUN: FileCheck %s < %t
# RUN: %expect-exit 3 ptodist run %s --entry orchestrator --ranks 1 --watchdog 0.5 > %t.fast 2>&1
# RUN: FileCheck %s --check-prefix=FAST < %t.fast
# RUN: %expect-exit 1 ptodist run %s --entry mixed_orchestrator --ranks 1 > %t.mixed 2>&1
# RUN: FileCheck %s --check-prefix=MIXED < %t.mixed
# CHECK: error: check: deadlock: every core is blocked and no transfer is in flight
# CHECK: waits in pl.system.sync_wait on cross-core event 4 on the cube (AIC)
# FAST: blocked in pl.system.sync_wait
# MIXED: sync_wait_without_set.py:{{[0-9]+}}:{{[0-9]+}}: error: pl.system.sync_wait: waits for cross-core event 4 on the cube (AIC), which no pl.system.sync_set before it raised
import pypto.language as pl


@pl.program
class WaitWithoutSet:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.system.sync_wait(4, pipe=pl.PipeType.MTE2)

    @pl.function(type=pl.FunctionType.AIV)
    def vector(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        pl.store(pl.full([16, 16], dtype=pl.FP32, value=1.0), [0, 0], y)

    @pl.function(type=pl.FunctionType.Group)
    def group(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        self.cube(y)
        self.vector(y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        self.group(y)

    @pl.function(type=pl.FunctionType.Opaque)
    def mixed_orchestrator(self, y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mixed"):
            for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                if lane == 0:
                    pl.store(pl.full([16, 16], dtype=pl.FP32, value=1.0), [0, 0], y)
            pl.system.sync_wait(4, pipe=pl.PipeType.MTE2, core_type="aic")
        return y
