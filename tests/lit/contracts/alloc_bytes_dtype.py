# RUN: ptodist check %s --verify-diagnostics
# alloc_window_buffer: a byte count is a buffer of INT8.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class Contract:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[pl.dynamic("NR"), 4, SIZE], pl.FP32]):
        # expected-error@+1 {{pld.alloc_window_buffer: a byte count as 'shape' needs dtype=pl.INT8, got pl.FP32}}
        buf = pld.alloc_window_buffer(4096, dtype=pl.FP32)
