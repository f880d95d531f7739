"""Ring shuffle with a synchronous remote put, written in the jit (function) style.

Every rank r sends its input row to rank (r + 1) % nranks and receives the row of rank
(r - 1) % nranks, so the golden result is ``y[r] == x[(r - 1) % N]``.

What it shows:
- the three jit levels: ``@pl.jit.incore`` (the kernel on one core), ``@pl.jit`` (per-chip
  orchestration) and ``@pl.jit.host`` (the host orchestrator that places one chip program per rank);
- symmetric window buffers: ``pld.alloc_window_buffer`` once on the host, ``pld.window`` views per rank;
- the publish protocol of a one-sided write: put the data, then notify the peer's signal cell; the
  receiver waits on its own cell before it reads the window.

Run it:
    ptodist run examples/ring_shuffle_put.py --ranks 4 --in x=rand:1 --out-dir out/
The ``__main__`` block (skipped by ptodist) is the golden check written as a PyPTO user would: it
runs the CLI and compares with numpy (as a script it needs numpy and an importable ``pypto``).
"""

import pypto.language as pl
import pypto.language.distributed as pld

# One FP32 row per rank: small enough to run in milliseconds, a whole number of 32-byte blocks.
SIZE = 1024


@pl.jit.incore
def ring_put_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    """Send x to the next rank through the src window; receive the previous rank's row into y."""
    ctx = pld.get_comm_ctx(src)
    my_rank = pld.rank(ctx)
    nranks = pld.nranks(ctx)
    peer = (my_rank + 1) % nranks

    # Stage the row in our own src window first (as PyPTO's ring test does): what a rank publishes
    # then lives in symmetric memory, and the store shows how `pl.store` rebinds the tensor it wrote.
    local = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(local, [0, 0], src)

    # Synchronous put: returns once the data has left through the UB staging tile.
    pld.tensor.put(dst, peer=peer, src=src, atomic=pld.AtomicType.None_)

    # Publish only after the put: the peer reads dst as soon as it sees the signal.
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)

    # Ge rather than Eq: a late reader still passes if the cell was bumped again.
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    # Our dst window now holds the row the previous rank pushed to us.
    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def ring_put_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    # One kernel per chip; the orchestration level only forwards its views.
    return ring_put_step(x, y, src, dst, signal)


@pl.jit.host
def ring_shuffle_put(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    # Window buffers are symmetric: one allocation gives every rank a buffer at the same offset,
    # which is what lets a rank address its peer's copy. Windows start zeroed.
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)

    # NR, the leading dim of x and y, is the rank count, known only when the run starts.
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        ring_put_chip(x[r], y[r], src, dst, signal, device=r)


if __name__ == "__main__":
    # Host test, skipped by ptodist: run on 4 ranks through the CLI and compare with the golden.
    import subprocess
    import tempfile

    import numpy as np

    nranks = 4
    x = np.arange(nranks * SIZE, dtype=np.float32).reshape(nranks, 1, SIZE)
    with tempfile.TemporaryDirectory() as tmp:
        np.save(f"{tmp}/x.npy", x)
        subprocess.run(["ptodist", "run", __file__, "--ranks", str(nranks),
                        "--in", f"x={tmp}/x.npy", "--out-dir", tmp], check=True)
        y = np.load(f"{tmp}/y.npy")
    # Rank r holds the row of rank r - 1: a roll by one along the rank axis.
    assert np.array_equal(y, np.roll(x, 1, axis=0)), "ring shuffle mismatch"
    print("ring_shuffle_put: ok")
