# Hazard 3 (in-flight buffer overwritten): the source window of an async put is refilled before the
# put is waited, so the DMA engine may send the new data, or half of each. check-async-events rejects
# the store at compile time (the send-buffer check); switched off, check mode reports it at run time.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 --no-pass check-async-events > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# With every pass on, the compile-time send-buffer check rejects it first:
# RUN: %expect-exit 1 ptodist check %s | FileCheck %s --check-prefix=STATIC
# CHECK: error: check: buffer of an in-flight transfer overwritten: rank 0, vector core 0 (block 0/1 of step) writes the source bytes [0, 256) of 'src' in rank 0's window while the transfer issued here is in flight
# CHECK: note: the transfer is issued here (pld.tile.put_async); its event is not waited before the write
# STATIC: error: pl.store: writes the source region src[0:1, 0:64] of pld.tensor.put_async while its event 'evt' may be outstanding
# STATIC: note: event 'evt' is issued here
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    row = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(row, [0, 0], src)
    sess = pld.system.async_session()
    # LINE-DAG: send_buffer_overwritten_in_flight.py:[[@LINE+1]]:11: note: the transfer is issued here
    evt = pld.tensor.put_async(dst, peer, src, sess)
    # Bug: the send buffer is reused while the transfer may still be reading it.
    doubled = pl.add(row, row)
    # LINE-DAG: send_buffer_overwritten_in_flight.py:[[@LINE+1]]:11: error: check: buffer of an in-flight transfer overwritten
    src = pl.store(doubled, [0, 0], src)
    pld.system.wait_async_event(evt, sess)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, y, src, dst, signal)


@pl.jit.host
def host(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], src, dst, signal, device=r)
