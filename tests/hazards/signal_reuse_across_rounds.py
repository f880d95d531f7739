# Hazard 5 (stale signal): rank 0 sends a row to rank 1 and raises its signal; rank 1 waits for the
# signal to reach 1. With persistent windows and no reset, the second round's wait is already
# satisfied by the first round's notify, so rank 1 reads before rank 0's new data is there.
# RUN: %expect-exit 3 ptodist bench %s --ranks 2 --mode check --seed 1 --persistent --warmup 0 --rounds 2 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: wait satisfied by a signal value left from an earlier round: rank 1, vector core 0 (block 0/1 of step) sees 1 in 'signal' [0, 0] but this round's notifies add up to only 0
# CHECK-NEXT: pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
# CHECK: note: notified in round 0 by rank 0, vector core 0 (block 0/1 of step) (pld.system.notify); reset the signal before the next round
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
        pld.tensor.put(dst, peer=1, src=x, atomic=pld.AtomicType.None_)
        # LINE-DAG: signal_reuse_across_rounds.py:[[@LINE+1]]:9: note: notified in round 0
        pld.system.notify(signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        # Bug: expected=1 holds from round 1 on; a persistent program waits for round + 1 or resets.
        # LINE-DAG: signal_reuse_across_rounds.py:[[@LINE+1]]:9: error: check: wait satisfied by a signal value left from an earlier round
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
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
