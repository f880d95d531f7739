# Near miss of signal_reset_races_notify.py: rank 1 resets its signal cell only after the wait that
# acquires rank 0's notify, so the reset is ordered after the notify's write. Clean over 50 seeds.
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# CHECK: no hazard
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def step(
    y: pl.Out[pl.Tensor[[1, 1], pl.INT32]],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(signal)
    if pld.rank(ctx) == 0:
        pld.system.notify(signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        pl.write(signal, [0, 0], 0)
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
