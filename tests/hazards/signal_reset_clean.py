# Near miss of hazard 5: the persistent producer/consumer of signal_reuse_across_rounds.py, fixed:
# the consumer resets its signal after the wait (rounds are ordered, so the reset lands before the
# next round's notify). Check mode must report nothing over several persistent rounds.
# RUN: %expect-exit 0 ptodist bench %s --ranks 2 --mode check --seed 1 --persistent --warmup 1 --rounds 3 | FileCheck %s
# RUN: %expect-exit 0 ptodist bench %s --ranks 2 --mode check --seed 2 --persistent --warmup 1 --rounds 3 | FileCheck %s
# CHECK: check mode: seed {{[12]}}, 4 rounds: no hazard
# CHECK-NOT: error
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
    if pld.rank(ctx) == 0:
        pld.tensor.put(dst, peer=1, src=x, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        # The reset: the next round's wait needs the next round's notify.
        pl.write(signal, [0, 0], 0)
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
