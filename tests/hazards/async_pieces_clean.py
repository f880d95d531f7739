# Near miss: a correct async ring (issue, compute, wait, notify, wait, read) whose transfers land in
# 64-byte pieces (block_bytes=64: four pieces per row, landed in any order the seed picks). Check mode
# must report nothing over 50 seeds, at 2 and 4 ranks: pieces are covered by the transfer's wait.
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# RUN: %expect-exit 0 ptodist run %s --ranks 4 --mode check --seed 1 --runs 50 | FileCheck %s
# CHECK: check mode: 50 run(s), seeds 1..50: no hazard
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session(block_bytes=64)
    evt = pld.tensor.put_async(dst, peer, x, sess)
    ones = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    twos = pl.add(ones, ones)
    z = pl.store(twos, [0, 0], z)
    pld.system.wait_async_event(evt, sess)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, y, z, dst, signal)


@pl.jit.host
def host(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], z[r], dst, signal, device=r)
