# Hazard 1 (unordered read), atomic adds: ranks 1 and 2 add their rows into rank 0's row and each
# raises the signal; rank 0 waits for the signal to reach 1 instead of 2 and reads the sum. One add is
# not ordered before the read when the wait sees 1. In seeds where both notifies come before the wait
# (it sees 2 and acquires both) that run has no race; over 20 seeds check mode must find one that has.
# RUN: %expect-exit 3 ptodist run %s --ranks 3 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 0, vector core 0 (block 0/1 of sum_step) reads bytes [0, 256) of 'total' in rank 0's window
# CHECK: note: written by rank {{[12]}}, vector core 0 (block 0/1 of sum_step) (pld.tile.put); nothing orders that write before the read
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def sum_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    total: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(total)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    if my_rank != 0:
        # LINE-DAG: atomic_add_missed.py:[[@LINE+1]]:9: note: written by rank
        pld.tensor.put(total, peer=0, src=x, atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        # Bug: waits for one producer; both add into the row.
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        # LINE-DAG: atomic_add_missed.py:[[@LINE+1]]:15: error: check: unordered read of window data
        acc = pl.load(total, [0, 0], [1, SIZE])
        y = pl.store(acc, [0, 0], y)
    return y


@pl.jit
def sum_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    total: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return sum_step(x, y, total, signal)


@pl.jit.host
def sum_to_rank0(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    total_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        total = pld.window(total_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        sum_chip(x[r], y[r], total, signal, device=r)
