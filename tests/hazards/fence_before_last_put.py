# Hazard 1 (unordered read), fence placement: a fence releases only the writes before it. The
# producer puts the first half of the row, fences, puts the second half and notifies; the consumer's
# read of the first half is ordered, its read of the second half is not. The fences are written by
# hand (insert-comm-fence off), so the report must name the second put, not the first.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 --no-pass insert-comm-fence > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 0, vector core 0 (block 0/1 of step) reads bytes [128, 256) of 'dst' in rank 0's window
# CHECK: note: written by rank 1, vector core 0 (block 0/1 of step) (pld.tile.put); nothing orders that write before the read: no fence between the write and the notify
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64
HALF = 32


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    pld.tensor.put(dst, peer=peer, src=x, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, HALF])
    pl.system.fence()
    # Bug: this put comes after the last fence, so the notify does not release it.
    # LINE-DAG: fence_before_last_put.py:[[@LINE+1]]:5: note: written by
    pld.tensor.put(dst, peer=peer, src=x, dst_offsets=[0, HALF], src_offsets=[0, HALF], shape=[1, HALF])
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pl.system.cacheinvalid()
    first = pl.load(dst, [0, 0], [1, HALF])
    y = pl.store(first, [0, 0], y)
    # LINE-DAG: fence_before_last_put.py:[[@LINE+1]]:14: error: check: unordered read of window data
    second = pl.load(dst, [0, HALF], [1, HALF])
    y = pl.store(second, [0, HALF], y)
    return y


@pl.jit
def chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, y, dst, signal)


@pl.jit.host
def host(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], dst, signal, device=r)
