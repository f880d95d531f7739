# Unordered read of local GM: an async get pulls the previous rank's row into the kernel's own GM
# tensor `y` (not a window), and the core reads `y` before it waits for the get's event; the DMA
# engine may not have written it yet. check-async-events rejects this at compile time; switched off,
# check mode reports it at run time.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 --no-pass check-async-events > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# With every pass on, the compile-time send-buffer check rejects it first:
# RUN: %expect-exit 1 ptodist check %s | FileCheck %s --check-prefix=STATIC
# CHECK: error: check: unordered read of local GM data: rank {{[01]}}, vector core 0 (block 0/1 of pull_step) reads bytes [0, 256) of 'y' in rank {{[01]}}'s local GM
# CHECK: note: written by rank {{[01]}}, vector core 0 (block 0/1 of pull_step) (pld.tile.get_async); nothing orders that write before the read: its event is not waited before the read
# STATIC: error: pl.load: reads the destination region y[0:1, 0:64] of pld.tensor.get_async while its event 'evt' may be outstanding
# STATIC: note: event 'evt' is issued here
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def pull_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    prev = (my_rank + nranks - 1) % nranks
    nxt = (my_rank + 1) % nranks
    row = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(row, [0, 0], src)
    pld.system.notify(signal, peer=nxt, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    sess = pld.system.async_session()
    # LINE-DAG: local_get_dest_read_before_wait.py:[[@LINE+1]]:11: note: written by
    evt = pld.tensor.get_async(y, prev, src, sess)
    # Bug: the read belongs after wait_async_event.
    # LINE-DAG: local_get_dest_read_before_wait.py:[[@LINE+1]]:12: error: check: unordered read of local GM data
    recv = pl.load(y, [0, 0], [1, SIZE])
    pld.system.wait_async_event(evt, sess)
    z = pl.store(recv, [0, 0], z)
    return z


@pl.jit
def chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return pull_step(x, y, z, src, signal)


@pl.jit.host
def host(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], z[r], src, signal, device=r)
