# RUN: ptodist check %s --verify-diagnostics
# pld.window's dtype is keyword-only, as in PyPTO (`window(buf, shape, *, dtype)`).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host(x: pl.Tensor[[2, 1, 16], pl.FP32]):
    buf = pld.alloc_window_buffer(16 * pl.FP32.get_byte())
    ok = pld.window(buf, [1, 16], dtype=pl.FP32)
    # expected-error@+1 {{pld.window: takes at most 2 positional arguments, got 3; pass 'dtype' and the parameters after it by keyword}}
    bad = pld.window(buf, [1, 16], pl.FP32)
