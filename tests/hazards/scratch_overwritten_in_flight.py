# Hazard 3 (in-flight buffer overwritten): without bind-async-scratch the wait no longer uses the
# session's 256 B UB scratch, so plan-memory ends its lifetime at the session and gives its bytes to
# the tile computed while the transfer flies: that tile overwrites the completion word the DMA engine
# is about to write. Check mode must name the tile's op and the transfer it corrupts.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 --no-pass bind-async-scratch > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: buffer of an in-flight transfer overwritten: rank 0, vector core 0 (block 0/1 of step) writes the completion word (session scratch, sync_id=0) while the transfer issued here is in flight
# CHECK: note: the transfer is issued here (pld.tile.put_async); its event is not waited before the write
# CHECK: note: the session (sync_id=0) whose scratch holds the completion word
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    # LINE-DAG: scratch_overwritten_in_flight.py:[[@LINE+1]]:12: note: the session (sync_id=0)
    sess = pld.system.async_session()
    # LINE-DAG: scratch_overwritten_in_flight.py:[[@LINE+1]]:11: note: the transfer is issued here
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # Overlapped compute: with the scratch dead after the session, this tile takes its bytes.
    # LINE-DAG: scratch_overwritten_in_flight.py:[[@LINE+1]]:12: error: check: buffer of an in-flight transfer overwritten
    ones = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    twos = pl.add(ones, ones)
    z = pl.store(twos, [0, 0], z)
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
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, y, z, dst, signal)


@pl.jit.host
def host(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], z[r], dst, signal, device=r)
