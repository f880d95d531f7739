# RUN: ptodist compile %s --emit=ir | FileCheck %s
# A constant that names a dtype (a factory default, `DTYPE = dtype`) is the dtype where an op needs one.
import pypto.language as pl
import pypto.language.distributed as pld


def _build(n_ranks, *, dtype=pl.FP16):
    DTYPE = dtype

    @pl.program
    class Windows:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, w: pld.DistributedTensor[[1, 16], DTYPE]):
            pass

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[n_ranks, 16], DTYPE]):
            buf = pld.alloc_window_buffer(16 * 2)
            for r in pl.range(pld.world_size()):
                # CHECK: w = pld.window(buf, [1, 16], dtype=pl.FP16)
                w = pld.window(buf, [1, 16], dtype=DTYPE)
                self.kernel(w, device=r)

    return Windows
