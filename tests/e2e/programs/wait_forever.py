# A kernel that waits on a signal nobody raises: the runtime's watchdog must report it, not hang.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def waiter(
    x: pl.Tensor[[1, 4], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Eq)


@pl.jit
def chip(
    x: pl.Tensor[[1, 4], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    waiter(x, signal)


@pl.jit.host
def wait_forever(x: pl.Tensor[[pl.dynamic("NR"), 1, 4], pl.FP32]):
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], signal, device=r)
