# Two vector kernels submitted together in one manual scope that need more vector cores than the chip
# has: a runtime error naming both kernels and the counts, never a hang.
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, first_cores=3, second_cores=3):
    @pl.program
    class OverBudget:
        @pl.function(type=pl.FunctionType.AIV)
        def producer(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            t = pl.load(x, [0, 0], [1, 4])
            y = pl.store(t, [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.AIV)
        def consumer(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            t = pl.load(x, [0, 0], [1, 4])
            y = pl.store(t, [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            with pl.manual_scope():
                y, t1 = pl.spmd_submit(self.producer, x, y, core_num=first_cores)
                y, t2 = pl.spmd_submit(self.consumer, x, y, core_num=second_cores)
            return y

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[world_size, 1, 4], pl.FP32], y: pl.Out[pl.Tensor[[world_size, 1, 4], pl.FP32]]) -> pl.Tensor[[world_size, 1, 4], pl.FP32]:
            for r in pl.range(pld.world_size()):
                self.chip(x[r], y[r], device=r)
            return y

    return OverBudget
