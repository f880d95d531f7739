# Write/write race between atomic adds of two dtypes: ranks 1 and 2 add into the same bytes of rank
# 0's `total`, one through an FP32 view and one through an INT32 view of the same window buffer.
# Atomic adds commute only when they add the same kind of number: an INT32 add into FP32 bits (or
# the reverse) is not an FP32 add, so the order matters and the two race.
# RUN: %expect-exit 3 ptodist run %s --ranks 3 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: write/write race on window data: rank {{[12]}}, vector core 0 (block 0/1 of sum_step) writes bytes [0, 256) of 'total_{{f|i}}' in rank 0's window
# CHECK: note: also written by rank {{[12]}}, vector core 0 (block 0/1 of sum_step) (pld.tile.remote_store), unordered with this write
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def sum_step(
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    total_f: pld.DistributedTensor[[1, SIZE], pl.FP32],
    total_i: pld.DistributedTensor[[1, SIZE], pl.INT32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(total_f)
    my_rank = pld.rank(ctx)
    if my_rank == 1:
        ones = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
        # LINE-DAG: atomic_adds_of_two_dtypes.py:[[@LINE+1]]:9: {{error|note}}:
        pld.tile.remote_store(ones, target=total_f, peer=0, offsets=[0, 0], atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    if my_rank == 2:
        # Bug: an INT32 add into the bytes rank 1 adds FP32 into.
        ones_i = pl.full([1, SIZE], dtype=pl.INT32, value=1)
        # LINE-DAG: atomic_adds_of_two_dtypes.py:[[@LINE+1]]:9: {{error|note}}:
        pld.tile.remote_store(ones_i, target=total_i, peer=0, offsets=[0, 0], atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    if my_rank == 0:
        pld.system.wait(signal, offsets=[0, 0], expected=2, cmp=pld.WaitCmp.Ge)
        acc = pl.load(total_f, [0, 0], [1, SIZE])
        y = pl.store(acc, [0, 0], y)
    return y


@pl.jit
def sum_chip(
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    total_f: pld.DistributedTensor[[1, SIZE], pl.FP32],
    total_i: pld.DistributedTensor[[1, SIZE], pl.INT32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return sum_step(y, total_f, total_i, signal)


@pl.jit.host
def host(y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]]):
    total_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        total_f = pld.window(total_buf, [1, SIZE], dtype=pl.FP32)
        total_i = pld.window(total_buf, [1, SIZE], dtype=pl.INT32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        sum_chip(y[r], total_f, total_i, signal, device=r)
