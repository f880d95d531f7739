# A kernel whose scalar arithmetic divides by a loop index that starts at 0: a run-time error at the
# division's line, not a crash (the executor evaluates `k // i` from its decoded operands).
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size):
    @pl.program
    class DivideByLoopIndex:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            for i in pl.range(2):
                k = 8 // i
                t = pl.load(x, [0, 0], [1, 4])
                y = pl.store(t, [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[1, 4], pl.FP32], y: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            y = self.kernel(x, y)
            return y

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[world_size, 1, 4], pl.FP32], y: pl.Out[pl.Tensor[[world_size, 1, 4], pl.FP32]]) -> pl.Tensor[[world_size, 1, 4], pl.FP32]:
            for r in pl.range(pld.world_size()):
                self.chip(x[r], y[r], device=r)
            return y

    return DivideByLoopIndex
