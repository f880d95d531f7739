# Hazard 1 (unordered read), the read runs first: as read_before_wait_one_sided.py, with a seed (2)
# whose schedule runs rank 1's early read before rank 0's put lands in its window. The read saw stale
# data all the same; the put that follows is unordered with it, so the report comes when the write
# lands (a write is checked against earlier reads, as a read is against earlier writes).
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 2 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 1, vector core 0 (block 0/1 of step) reads bytes [0, 256) of 'dst' in rank 1's window
# CHECK: note: written by rank 0, vector core 0 (block 0/1 of step) (pld.tile.put); nothing orders that write before the read
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
    if pld.rank(ctx) == 0:
        # LINE-DAG: read_before_write_lands.py:[[@LINE+1]]:9: note: written by rank 0
        pld.tensor.put(dst, peer=1, src=x, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        # Bug: the load belongs after the wait.
        # LINE-DAG: read_before_write_lands.py:[[@LINE+1]]:16: error: check: unordered read of window data
        recv = pl.load(dst, [0, 0], [1, SIZE])
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
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
