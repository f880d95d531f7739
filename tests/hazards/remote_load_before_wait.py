# Hazard 1 (unordered read), a peer's window: each rank stores its row in its own window and
# notifies the next rank, which is to pull the row with remote_load after its wait; the remote_load
# runs before the wait. The report names the reader, the peer's window and the peer's store.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 0, vector core 0 (block 0/1 of pull_step) reads bytes [0, 256) of 'src' in rank 1's window
# CHECK-NEXT: recv = pld.tile.remote_load(src, peer=prev, offsets=[0, 0], shape=[1, SIZE])
# CHECK: note: written by rank 1, vector core 0 (block 0/1 of pull_step) (pl.store); nothing orders that write before the read: no wait acquires it
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def pull_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    prev = (my_rank + nranks - 1) % nranks
    nxt = (my_rank + 1) % nranks
    row = pl.load(x, [0, 0], [1, SIZE])
    # LINE-DAG: remote_load_before_wait.py:[[@LINE+1]]:11: note: written by
    src = pl.store(row, [0, 0], src)
    pld.system.notify(signal, peer=nxt, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    # Bug: the pull belongs after the wait.
    # LINE-DAG: remote_load_before_wait.py:[[@LINE+1]]:12: error: check: unordered read of window data
    recv = pld.tile.remote_load(src, peer=prev, offsets=[0, 0], shape=[1, SIZE])
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def pull_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return pull_step(x, y, src, signal)


@pl.jit.host
def pull_ring(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        pull_chip(x[r], y[r], src, signal, device=r)
