# Hazard 1 (unordered read), the get side: an async get pulls the peer's row into a local window, and
# the core reads that window before it waits for the get's event. The DMA engine may not have
# written it yet. check-async-events rejects the read at compile time (the send-buffer check); switched
# off, check mode reports it at run time.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 --no-pass check-async-events > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# With every pass on, the compile-time send-buffer check rejects it first:
# RUN: %expect-exit 1 ptodist check %s | FileCheck %s --check-prefix=STATIC
# CHECK: error: check: unordered read of window data: rank 0, vector core 0 (block 0/1 of pull_step) reads bytes [0, 256) of 'inbox' in rank 0's window
# CHECK-NEXT: recv = pl.load(inbox, [0, 0], [1, SIZE])
# CHECK: note: written by rank 0, vector core 0 (block 0/1 of pull_step) (pld.tile.get_async); nothing orders that write before the read: its event is not waited before the read
# STATIC: error: pl.load: reads the destination region inbox[0:1, 0:64] of pld.tensor.get_async while its event 'evt' may be outstanding
# STATIC: note: event 'evt' is issued here
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def pull_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    inbox: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    prev = (my_rank + nranks - 1) % nranks
    nxt = (my_rank + 1) % nranks
    # Publish our row in our own src window, then tell the next rank it may pull it.
    row = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(row, [0, 0], src)
    pld.system.notify(signal, peer=nxt, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    sess = pld.system.async_session()
    # LINE-DAG: get_async_read_before_wait.py:[[@LINE+1]]:11: note: written by
    evt = pld.tensor.get_async(inbox, prev, src, sess)
    # Bug: the read belongs after wait_async_event.
    # LINE-DAG: get_async_read_before_wait.py:[[@LINE+1]]:12: error: check: unordered read of window data
    recv = pl.load(inbox, [0, 0], [1, SIZE])
    pld.system.wait_async_event(evt, sess)
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def pull_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    inbox: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return pull_step(x, y, src, inbox, signal)


@pl.jit.host
def pull_ring(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    inbox_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        inbox = pld.window(inbox_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        pull_chip(x[r], y[r], src, inbox, signal, device=r)
