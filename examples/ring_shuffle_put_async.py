"""Ring shuffle with the asynchronous DMA put, beside its synchronous twin (jit style).

Two programs live in this file; pick one with ``--program``:
- ``ring_put_async``: rank r opens a DMA session, issues ``pld.tensor.put_async`` of its row to rank
  (r + 1) % nranks, computes locally while the transfer flies, drains the event with
  ``pld.system.wait_async_event``, and only then notifies the peer;
- ``ring_put_sync``: the same data movement with the synchronous ``pld.tensor.put`` and identical
  local compute.
Both give ``y[r] == x[(r - 1) % N]`` and ``z[r] == (x[r] + x[r]) * x[r]``, so their outputs can be
compared bit for bit: a notify placed before the drain, or a fence at the issue instead of the wait,
would show up as a difference (and `ptodist run --mode check` names the two lines involved).

The row is logically 1-D (``[1, SIZE]``): the DMA engine moves flat contiguous regions only.

Run:
    ptodist run examples/ring_shuffle_put_async.py --program ring_put_async --ranks 4 \\
        --in x=rand:1 --out-dir out/async
"""

import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 1024


@pl.jit.incore
def put_async_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    """Issue the remote write, compute while it is in flight, drain it, then publish."""
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    peer = (my_rank + 1) % nranks

    local = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(local, [0, 0], src)

    # One session per kernel: it owns the DMA channel and a 256 B completion scratch in UB.
    sess = pld.system.async_session()
    # GM to GM on the DMA engine: no staging tile, the core is free as soon as this returns.
    evt = pld.tensor.put_async(dst, peer, src, sess)

    # Local work overlapping the transfer. It reads x, not src, so it cannot race the DMA's reads.
    scratch = pl.load(x, [0, 0], [1, SIZE])
    scratch = pl.add(scratch, scratch)
    scratch = pl.mul(scratch, local)
    z = pl.store(scratch, [0, 0], z)

    # Drain before publishing: the data is in the peer's window only after this wait, and the
    # compiler puts the GM fence here, not at the issue. A notify before it is a compile error.
    pld.system.wait_async_event(evt, sess)

    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit.incore
def put_sync_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    """The synchronous control: same data, same compute, the put blocks the core instead."""
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    peer = (my_rank + 1) % nranks

    local = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(local, [0, 0], src)

    # Through a UB staging tile: the core waits here for the whole transfer.
    pld.tensor.put(dst, peer=peer, src=src, atomic=pld.AtomicType.None_)

    scratch = pl.load(x, [0, 0], [1, SIZE])
    scratch = pl.add(scratch, scratch)
    scratch = pl.mul(scratch, local)
    z = pl.store(scratch, [0, 0], z)

    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def put_async_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return put_async_step(x, y, z, src, dst, signal)


@pl.jit
def put_sync_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return put_sync_step(x, y, z, src, dst, signal)


@pl.jit.host
def ring_put_async(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        put_async_chip(x[r], y[r], z[r], src, dst, signal, device=r)


@pl.jit.host
def ring_put_sync(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    z: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        put_sync_chip(x[r], y[r], z[r], src, dst, signal, device=r)


if __name__ == "__main__":
    # Host test, skipped by ptodist: run both programs and compare them with each other and the golden.
    import subprocess
    import tempfile

    import numpy as np

    nranks = 4
    x = np.random.default_rng(7).standard_normal((nranks, 1, SIZE)).astype(np.float32)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        np.save(f"{tmp}/x.npy", x)
        for program in ("ring_put_async", "ring_put_sync"):
            out = f"{tmp}/{program}"
            subprocess.run(["ptodist", "run", __file__, "--program", program, "--ranks", str(nranks),
                            "--in", f"x={tmp}/x.npy", "--out-dir", out], check=True)
            results[program] = (np.load(f"{out}/y.npy"), np.load(f"{out}/z.npy"))
    y_async, z_async = results["ring_put_async"]
    y_sync, z_sync = results["ring_put_sync"]
    assert np.array_equal(y_async, np.roll(x, 1, axis=0)), "async ring shuffle mismatch"
    assert np.array_equal(y_async, y_sync) and np.array_equal(z_async, z_sync), "async != sync"
    assert np.array_equal(z_async, (x + x) * x), "local compute mismatch"
    print("ring_shuffle_put_async: ok")
