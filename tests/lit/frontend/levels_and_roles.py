# RUN: ptodist check %s --verify-diagnostics
# pl.Level and pl.Role have PyPTO's members; a function runs at HOST (or its alias NODE) or CHIP (or
# PROCESSOR/UMA), other levels are a located "not supported yet", and @pl.jit.extern likewise.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Levels:
    @pl.function(level=pl.Level.PROCESSOR, role=pl.Role.Orchestrator)
    def chip(self, x: pl.Tensor[[1, 16], pl.FP32]):
        pass

    @pl.function(level=pl.Level.NODE, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[pl.dynamic("NR"), 1, 16], pl.FP32]):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], device=r)

    # expected-error@+1 {{functions at pl.Level.CLUSTER_0 are not supported yet}}
    @pl.function(level=pl.Level.CLUSTER_0, role=pl.Role.Orchestrator)
    def pod(self, x: pl.Tensor[[1, 16], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 16], pl.FP32]):
        a = pl.Level.CORE_GROUP
        b = pl.Level.CHIP_DIE
        c = pl.Level.CLOS2
        d = pl.Role.SubWorker
        # expected-error@+1 {{unknown member 'CHP' of pl.Level; expected one of AIV, AIC, CORE_GROUP}}
        e = pl.Level.CHP


# expected-error@+1 {{@pl.jit.extern functions are not supported yet (a kernel from external C++ source)}}
@pl.jit.extern
def spliced(x: pl.Tensor[[1, 16], pl.FP32]):
    pass
