# Unordered read of a signal cell: rank 1 reads its signal cell with a plain pl.read before it waits,
# while rank 0's notify writes the cell. A notify is a write of its cell's bytes, so the read is
# unordered with it (whichever ran first): the value read is a race.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 1, vector core 0 (block 0/1 of step) reads bytes [0, 4) of 'signal' in rank 1's window
# CHECK: note: written by rank 0, vector core 0 (block 0/1 of step) (pld.system.notify); nothing orders that write before the read: no wait acquires it
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def step(
    y: pl.Out[pl.Tensor[[1, 1], pl.INT32]],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(signal)
    if pld.rank(ctx) == 0:
        # LINE-DAG: signal_read_races_notify.py:[[@LINE+1]]:9: note: written by rank 0
        pld.system.notify(signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        # Bug: a plain read of the cell the peer notifies; read it after the wait.
        # LINE-DAG: signal_read_races_notify.py:[[@LINE+1]]:18: error: check: unordered read of window data
        before = pl.read(signal, [0, 0])
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        pl.write(y, [0, 0], before)
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
