# RUN: ptodist check %s --verify-diagnostics
# op levels: pl.load runs in kernels only.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class Contract:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[pl.dynamic("NR"), 4, SIZE], pl.FP32]):
        # expected-error@+1 {{pl.load: not allowed in a host orchestrator; it may only be called from kernels (InCore, AIC, AIV)}}
        t = pl.load(x, [0, 0, 0], [1, 4, SIZE])
