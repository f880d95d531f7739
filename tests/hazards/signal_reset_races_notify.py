# Write/write race on a signal cell: rank 1 resets its cell with a plain pl.write before it waits,
# while rank 0's AtomicAdd notify writes the same cell. A notify is a write of the cell's bytes, and a
# plain store is not an atomic add, so the two race: the reset may wipe the arrival (and the wait
# then hangs) or come first. Resetting after the wait is right (signal_reset_after_wait_clean.py).
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: write/write race on window data: rank {{[01]}}, vector core 0 (block 0/1 of step) writes bytes [0, 4) of 'signal' in rank 1's window
# CHECK: note: also written by rank {{[01]}}, vector core 0 (block 0/1 of step) ({{pld.system.notify|pl.write}}), unordered with this write
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def step(
    y: pl.Out[pl.Tensor[[1, 1], pl.INT32]],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(signal)
    if pld.rank(ctx) == 0:
        # LINE-DAG: signal_reset_races_notify.py:[[@LINE+1]]:9: {{error|note}}:
        pld.system.notify(signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        # Bug: the reset races with the peer's notify; reset after the wait.
        # LINE-DAG: signal_reset_races_notify.py:[[@LINE+1]]:9: {{error|note}}:
        pl.write(signal, [0, 0], 0)
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        pl.write(y, [0, 0], 1)
    return y


@pl.jit
def chip(
    y: pl.Out[pl.Tensor[[1, 1], pl.INT32]],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(y, signal)


@pl.jit.host
def host(y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, 1], pl.INT32]]):
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(y[r], signal, device=r)
