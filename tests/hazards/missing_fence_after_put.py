# Hazard 1 (unordered read): a synchronous put followed by a notify with no fence between them, so
# the notify does not release the put's writes. insert-comm-fence adds that fence; it is switched off
# here and the consume-side invalidate is written by hand, so only the missing fence is wrong.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 --no-pass insert-comm-fence > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 1, vector core 0 (block 0/1 of step) reads bytes [0, 256) of 'dst' in rank 1's window
# CHECK: note: written by rank 0, vector core 0 (block 0/1 of step) (pld.tile.put); nothing orders that write before the read: no fence between the write and the notify
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    peer = (my_rank + 1) % nranks
    # LINE-DAG: missing_fence_after_put.py:[[@LINE+1]]:5: note: written by rank 0
    pld.tensor.put(dst, peer=peer, src=x, atomic=pld.AtomicType.None_)
    # Bug: no pl.system.fence() here, so the notify may overtake the put's data.
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pl.system.cacheinvalid()
    # LINE-DAG: missing_fence_after_put.py:[[@LINE+1]]:12: error: check: unordered read of window data
    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
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
