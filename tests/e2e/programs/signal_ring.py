# Signals only: every rank notifies the next one and waits for the previous one. No op of this kernel
# stores into a window, so a transport that publishes local stores before a signal has nothing to do.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def signal_step(
    x: pl.Tensor[[1, 4], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(signal)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)


@pl.jit
def signal_chip(
    x: pl.Tensor[[1, 4], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    signal_step(x, signal)


@pl.jit.host
def signal_ring(x: pl.Tensor[[pl.dynamic("NR"), 1, 4], pl.FP32]):
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        signal_chip(x[r], signal, device=r)
