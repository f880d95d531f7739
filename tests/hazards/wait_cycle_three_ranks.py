# Hazard 6 (deadlock), three ranks: rank r waits for rank r - 1's signal before it notifies rank
# r + 1, so the wait-for cycle is the whole ring, 0 -> 2 -> 1 -> 0 (a core waits for the core that
# would notify it). The reported cycle must be that one: rank 2 waits for rank 1, not for rank 0,
# so a two-core cycle 0 -> 2 -> 0 would be wrong.
# RUN: %expect-exit 3 ptodist run %s --ranks 3 --mode check --seed 1 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: deadlock: every core is blocked and no transfer is in flight
# CHECK-DAG: note: rank 0, vector core 0 (block 0/1 of step) waits in pld.system.wait on signal[0, 0] (sees 0, expects >= 1)
# CHECK-DAG: note: rank 1, vector core 0 (block 0/1 of step) waits in pld.system.wait on signal[0, 0] (sees 0, expects >= 1)
# CHECK-DAG: note: rank 2, vector core 0 (block 0/1 of step) waits in pld.system.wait on signal[0, 0] (sees 0, expects >= 1)
# CHECK: note: wait-for cycle: rank 0, vector core 0 -> rank 2, vector core 0 -> rank 1, vector core 0 -> rank 0, vector core 0
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
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    # Bug: the wait belongs after this rank's own put and notify.
    # LINE-DAG: wait_cycle_three_ranks.py:[[@LINE+1]]:5: error: check: deadlock
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pld.tensor.put(dst, peer=peer, src=x, atomic=pld.AtomicType.None_)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
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
    # LINE-DAG: wait_cycle_three_ranks.py:[[@LINE+1]]:12: note: rank 0, orchestrator (chip) waits in kernel call
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
