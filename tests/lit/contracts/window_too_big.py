# RUN: ptodist check %s --verify-diagnostics
# window: the view fits in its window buffer.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class Contract:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[pl.dynamic("NR"), 4, SIZE], pl.FP32]):
        buf = pld.alloc_window_buffer([4, SIZE], dtype=pl.FP32)
        # expected-error@+1 {{pld.window: the window [8, 256] of pl.FP32 needs 8192 bytes but 'buf' holds 4096}}
        w = pld.window(buf, [8, SIZE], dtype=pl.FP32)
