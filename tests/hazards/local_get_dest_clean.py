# Near miss of local_get_dest_read_before_wait.py: the same kernel reads the local GM destination `y`
# of its async get only after wait_async_event. Clean over 50 seeds, with every pass on.
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# CHECK: no hazard
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def pull_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    prev = (my_rank + nranks - 1) % nranks
    nxt = (my_rank + 1) % nranks
    row = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(row, [0, 0], src)
    pld.system.notify(signal, peer=nxt, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    sess = pld.system.async_session()
    evt = pld.tensor.get_async(y, prev, src, sess)
    pld.system.wait_async_event(evt, sess)
    recv = pl.load(y, [0, 0], [1, SIZE])
    z = pl.store(recv, [0, 0], z)
    return z


@pl.jit
def chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return pull_step(x, y, z, src, signal)


@pl.jit.host
def host(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], z[r], src, signal, device=r)
