# Near miss of atomic_adds_of_two_dtypes.py: both ranks add FP32 through the same FP32 view, so the
# two atomic adds commute and nothing is reported; rank 0 reads after waiting for both. Clean over
# 50 seeds.
# RUN: %expect-exit 0 ptodist run %s --ranks 3 --mode check --seed 1 --runs 50 | FileCheck %s
# CHECK: no hazard
# CHECK-NOT: error
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
        pld.tile.remote_store(ones, target=total_f, peer=0, offsets=[0, 0], atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    if my_rank == 2:
        ones = pl.full([1, SIZE], dtype=pl.FP32, value=2.0)
        pld.tile.remote_store(ones, target=total_f, peer=0, offsets=[0, 0], atomic=pld.AtomicType.Add)
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
