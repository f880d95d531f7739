# In-flight buffer overwritten, in local GM, found only at run time: as local_send_buffer_overwritten.py,
# but the store's row is a run-time value, so check-async-events (which compares static regions)
# accepts the kernel with every pass on, and check mode reports the overwrite.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: buffer of an in-flight transfer overwritten: rank {{[01]}}, vector core 0 (block 0/1 of step) writes the source bytes [0, 256) of 'x' in rank {{[01]}}'s local GM while the transfer issued here is in flight
# CHECK: note: the transfer is issued here (pld.tile.put_async); its event is not waited before the write
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    row = pl.load(x, [0, 0], [1, SIZE])
    sess = pld.system.async_session()
    # LINE-DAG: local_send_buffer_dynamic_offset.py:[[@LINE+1]]:11: note: the transfer is issued here
    evt = pld.tensor.put_async(dst, peer, x, sess)
    doubled = pl.add(row, row)
    # Bug: the send buffer is refilled while the transfer may still be reading it. The row is a
    # run-time value (0 on every rank), so the compile-time check cannot tell it overlaps.
    row_idx = pld.rank(ctx) // pld.nranks(ctx)
    # LINE-DAG: local_send_buffer_dynamic_offset.py:[[@LINE+1]]:9: error: check: buffer of an in-flight transfer overwritten
    x = pl.store(doubled, [row_idx, 0], x)
    pld.system.wait_async_event(evt, sess)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return x


@pl.jit
def chip(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, dst, signal)


@pl.jit.host
def host(x: pl.InOut[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]]):
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], dst, signal, device=r)
