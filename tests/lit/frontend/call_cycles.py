# RUN: ptodist check %s --verify-diagnostics
# A function that calls itself, directly or through others, would recurse without end at run time:
# the call that closes the cycle is an error.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Cycles:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 64])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def ping(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        y = self.kernel(x, y)
        y = self.pong(x, y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def pong(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        # expected-error@+1 {{recursive call: 'ping' -> 'pong' -> 'ping'; a kernel or orchestrator runs each call to completion}}
        y = self.ping(x, y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def selfish(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]) -> pl.Tensor[[1, 64], pl.FP32]:
        # expected-error@+1 {{recursive call: 'selfish' -> 'selfish'}}
        y = self.selfish(x, y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 64], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 64], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.ping(x[r], y[r], device=r)
            self.selfish(x[r], y[r], device=r)
