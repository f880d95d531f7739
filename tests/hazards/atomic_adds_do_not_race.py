# Near miss of hazard 2: two ranks add into the same row of rank 0 with atomic puts. Atomic adds do
# not race with each other, so check mode must report nothing and exit 0.
# RUN: %expect-exit 0 ptodist run %s --ranks 3 --mode check --seed 1 --runs 20 | FileCheck %s
# CHECK: no hazard
# CHECK-NOT: error
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
        pld.tensor.put(total, peer=0, src=x, atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        pld.system.wait(signal, offsets=[0, 0], expected=nranks - 1, cmp=pld.WaitCmp.Ge)
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
