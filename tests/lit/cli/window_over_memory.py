# A window larger than this machine's memory is a one-line located error naming the bytes, not an
# allocation that wraps (issue 21: a window whose byte size overflowed was allocated as 1 byte and the
# run wrote past it) or aborts. 2^40 FP32 elements per rank: 4 TiB.
# RUN: not ptodist run %s --ranks 2 2>&1 | FileCheck %s
# CHECK: window_over_memory.py:[[@LINE+8]]:11: error: pld.alloc_window_buffer: the window needs 4398046511104 bytes per rank on 2 ranks, more than the {{[0-9]+}} bytes of memory of this machine
# CHECK-NOT: internal error
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.host
def host(x: pl.Tensor[[2, 1, 4], pl.FP32]):
    buf = pld.alloc_window_buffer([1 << 20, 1 << 20], dtype=pl.FP32)
