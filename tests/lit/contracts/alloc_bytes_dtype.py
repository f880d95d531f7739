# RUN: ptodist check %s --verify-diagnostics
# alloc_window_buffer has PyPTO's two forms: a byte count without dtype, or a list of dims with a
# required keyword-only dtype.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class Contract:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[pl.dynamic("NR"), 4, SIZE], pl.FP32]):
        ok_bytes = pld.alloc_window_buffer(4096, name="bytes")
        ok_dims = pld.alloc_window_buffer([4, SIZE], dtype=pl.FP32, name="dims")
        # expected-error@+1 {{pld.alloc_window_buffer: dtype= is only valid when 'size' is a list of dims, not a byte count}}
        a = pld.alloc_window_buffer(4096, dtype=pl.FP32)
        # expected-error@+1 {{pld.alloc_window_buffer: a list of dims as 'size' needs dtype= (e.g. dtype=pl.FP32); pass an int for a byte count}}
        b = pld.alloc_window_buffer([4, SIZE])
        # expected-error@+1 {{pld.alloc_window_buffer: takes at most 1 positional argument, got 2; pass 'dtype' and the parameters after it by keyword}}
        c = pld.alloc_window_buffer([4, SIZE], pl.FP32)
        # expected-error@+1 {{pld.alloc_window_buffer: 'name' must be a string, got pl.Scalar[pl.INT64]}}
        d = pld.alloc_window_buffer(4096, name=3)
        # expected-error@+1 {{pld.alloc_window_buffer: unexpected keyword argument 'shape'}}
        e = pld.alloc_window_buffer(shape=4096)
