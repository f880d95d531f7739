# Near miss: the async get ring of get_async_read_before_wait.py, fixed: the core reads the pulled
# row after wait_async_event, which acquires the transfer. Check mode must report nothing.
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 30 | FileCheck %s
# RUN: %expect-exit 0 ptodist run %s --ranks 4 --mode check --seed 1 --runs 30 | FileCheck %s
# CHECK: check mode: 30 run(s), seeds 1..30: no hazard
# CHECK-NOT: error
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
    evt = pld.tensor.get_async(inbox, prev, src, sess)
    pld.system.wait_async_event(evt, sess)
    # After the wait: the get's data is ordered before this read (the wait acquires the transfer).
    recv = pl.load(inbox, [0, 0], [1, SIZE])
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
