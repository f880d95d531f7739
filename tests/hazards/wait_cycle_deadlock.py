# Hazard 6 (deadlock): every rank waits for its neighbour's signal before sending its own, so the
# ranks wait on each other in a ring and nothing is in flight. Check mode must report the deadlock
# at the wait, with the wait-for cycle, instead of hanging.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: deadlock: every core is blocked and no transfer is in flight
# CHECK: note: rank 0, orchestrator (chip) waits in kernel call on kernel 'step'
# CHECK: note: rank 1, orchestrator (chip) waits in kernel call on kernel 'step'
# CHECK: note: rank 0, vector core 0 (block 0/1 of step) waits in pld.system.wait on signal[0, 0] (sees 0, expects >= 1)
# CHECK: note: rank 1, vector core 0 (block 0/1 of step) waits in pld.system.wait on signal[0, 0] (sees 0, expects >= 1)
# CHECK: note: wait-for cycle: rank 0, vector core 0 -> rank 1, vector core 0 -> rank 0, vector core 0
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
    # LINE-DAG: wait_cycle_deadlock.py:[[@LINE+1]]:5: error: check: deadlock
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
    # LINE-DAG: wait_cycle_deadlock.py:[[@LINE+1]]:12: note: rank 0, orchestrator (chip) waits in kernel call
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
