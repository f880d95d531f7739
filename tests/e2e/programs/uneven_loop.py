# Each rank loops as many times as its row of x says (x[r][0, 0]), so one rank can finish its kernel
# and wait at the round's end while another still computes: the MPI liveness test stops the busy one
# and measures the waiting one. y[r][0, 0] ends as the trip count.
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size):
    @pl.program
    class UnevenLoop:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(self, x: pl.Tensor[[1, 4], pl.INT64], y: pl.Out[pl.Tensor[[1, 4], pl.INT64]]) -> pl.Tensor[[1, 4], pl.INT64]:
            n = pl.read(x, [0, 0])
            k = 0
            for i in pl.range(n):
                k = k + 1
            pl.write(y, [0, 0], k)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[1, 4], pl.INT64], y: pl.Out[pl.Tensor[[1, 4], pl.INT64]]) -> pl.Tensor[[1, 4], pl.INT64]:
            y = self.kernel(x, y)
            return y

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[world_size, 1, 4], pl.INT64], y: pl.Out[pl.Tensor[[world_size, 1, 4], pl.INT64]]):
            for r in pl.range(pld.world_size()):
                self.chip(x[r], y[r], device=r)

    return UnevenLoop
