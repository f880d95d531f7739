# @pl.jit.inline helpers spliced into a kernel: a signal exchange with the peer whose parameter is an
# alias of the caller's window, and a computation whose parameter is passed an expression (1.5).
import pypto.language as pl
import pypto.language.distributed as pld

N = 64
R = 2


@pl.jit.inline
def bump(signal: pld.DistributedTensor[[R, 1], pl.INT32], me: pl.Scalar[pl.INT32], peer: pl.Scalar[pl.INT32]):
    pld.system.notify(target=signal, peer=peer, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal=signal, offsets=[peer, 0], expected=1, cmp=pld.WaitCmp.Ge)
    return signal


@pl.jit.inline
def twice(t: pl.Tensor[[1, N], pl.FP32], scale: pl.Scalar[pl.FP32]):
    x = pl.load(t, [0, 0], [1, N])
    y = pl.muls(pl.add(x, x), scale)
    return y


@pl.jit.incore
def kernel(
    a: pl.Tensor[[1, N], pl.FP32],
    out: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    signal: pld.DistributedTensor[[R, 1], pl.INT32],
    me: pl.Scalar[pl.INT32],
):
    signal = bump(signal, me, 1 - me)
    x = twice(a, 0.5 + 1.0)
    out = pl.store(x, [0, 0], out)
    return out


@pl.jit
def chip(
    a: pl.Tensor[[1, N], pl.FP32],
    out: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    signal: pld.DistributedTensor[[R, 1], pl.INT32],
    me: pl.Scalar[pl.INT32],
):
    out = kernel(a, out, signal, me)
    return out


@pl.jit.host
def host(a: pl.Tensor[[R, 1, N], pl.FP32], out: pl.Out[pl.Tensor[[R, 1, N], pl.FP32]]):
    buf = pld.alloc_window_buffer([R, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        signal = pld.window(buf, [R, 1], dtype=pl.INT32)
        chip(a[r], out[r], signal, r, device=r)
