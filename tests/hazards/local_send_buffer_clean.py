# Near miss of local_send_buffer_overwritten.py: the same kernel refills its local GM send buffer `x`
# only after wait_async_event, when the DMA engine is done reading it. Clean over 50 seeds, with every
# pass on (the compile-time send-buffer check accepts it too).
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# CHECK: no hazard
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    row = pl.load(x, [0, 0], [1, SIZE])
    sess = pld.system.async_session()
    evt = pld.tensor.put_async(dst, peer, x, sess)
    doubled = pl.add(row, row)
    pld.system.wait_async_event(evt, sess)
    x = pl.store(doubled, [0, 0], x)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return x


@pl.jit
def chip(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, dst, signal)


@pl.jit.host
def host(x: pl.InOut[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]]):
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], dst, signal, device=r)
