"""Overlap benchmark: one large async DMA put hidden behind a long vector-compute loop.

Two programs, each built by a factory, so the sizes come from the command line:
- ``PutAsyncOverlap`` (``make_async_program``): rank r issues one logically 1-D
  ``pld.tensor.put_async`` of its ``[1, N]`` input row (local GM) into the ``[1, N]`` window of rank
  (r + 1) % nranks, runs ``compute_iters`` vector adds on a ``[1, 4096]`` FP32 tile in UB while the
  DMA engine moves the data, then drains the event, notifies the peer and waits for its own signal;
- ``PutSyncOverlap`` (``make_sync_program``): the synchronous twin. ``pld.tensor.put`` streams the
  row through a ``[1, 4096]`` UB staging tile and blocks the core, so the same compute runs after it.
The time difference between the two is the overlap the async put buys (``ptodist bench`` and
``ptodist predict`` report it). Outputs are identical: ``y[r] == x[(r - 1) % N]`` (read back from the
window after the signal) and ``z[r] == x[r][:, :4096] + compute_iters``.

The published measurement moves 8 MiB (2 Mi FP32 elements); the default is 256 KiB so a CPU run takes
seconds:
    ptodist bench examples/put_async_overlap.py --program PutAsyncOverlap --ranks 2 \\
        -D transfer_elems=2097152 --warmup 2 --rounds 10
``transfer_elems`` must be a multiple of 4096 (the read-back tile).
"""

import pypto.language as pl
import pypto.language.distributed as pld

# The compute and read-back tile: [1, 4096] FP32 is 16 KiB, so the live Vec tiles of either kernel
# (compute accumulator, addend, read-back or staging tile, 256 B session scratch) stay far below the
# 188416 bytes of UB usable on an a2a3 vector core.
TILE_COLS = 4096


def make_async_program(world_size, transfer_elems=65536, compute_iters=64):
    N = transfer_elems
    ITERS = compute_iters
    READ_TILES = N // TILE_COLS

    @pl.program
    class PutAsyncOverlap:
        @pl.function(type=pl.FunctionType.InCore)
        def overlap_kernel(
            self,
            x: pl.Tensor[[1, N], pl.FP32],
            y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
            z: pl.Out[pl.Tensor[[1, TILE_COLS], pl.FP32]],
            dst: pld.DistributedTensor[[1, N], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
        ) -> pl.Tensor[[1, N], pl.FP32]:
            ctx = pld.get_comm_ctx(dst)
            my_rank = pld.rank(ctx)
            nranks = pld.nranks(ctx)
            peer = (my_rank + 1) % nranks

            # The whole row in one transfer: [1, N] is flat and contiguous, which the DMA engine
            # requires, and the source is plain local GM (no window, no staging tile).
            sess = pld.system.async_session()
            evt = pld.tensor.put_async(dst, peer, x, sess)

            # The overlapped work: long enough to hide the transfer at the published size.
            acc = pl.load(x, [0, 0], [1, TILE_COLS])
            step = pl.full([1, TILE_COLS], dtype=pl.FP32, value=1.0)
            for i in pl.range(ITERS):
                acc = pl.add(acc, step)
            z = pl.store(acc, [0, 0], z)

            # Drain, then publish: a notify while the event may be outstanding is a compile error.
            pld.system.wait_async_event(evt, sess)
            pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

            # Read back what the previous rank sent, outside the overlapped region.
            for t in pl.range(READ_TILES):
                recv = pl.load(dst, [0, t * TILE_COLS], [1, TILE_COLS])
                y = pl.store(recv, [0, t * TILE_COLS], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            x: pl.Tensor[[1, N], pl.FP32],
            y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
            z: pl.Out[pl.Tensor[[1, TILE_COLS], pl.FP32]],
            dst: pld.DistributedTensor[[1, N], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
        ) -> pl.Tensor[[1, N], pl.FP32]:
            return self.overlap_kernel(x, y, z, dst, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            x: pl.Tensor[[world_size, 1, N], pl.FP32],
            y: pl.Out[pl.Tensor[[world_size, 1, N], pl.FP32]],
            z: pl.Out[pl.Tensor[[world_size, 1, TILE_COLS], pl.FP32]],
        ) -> pl.Tensor[[world_size, 1, N], pl.FP32]:
            dst_buf = pld.alloc_window_buffer([1, N], dtype=pl.FP32)
            signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                dst = pld.window(dst_buf, [1, N], dtype=pl.FP32)
                signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
                self.chip_orch(x[r], y[r], z[r], dst, signal, device=r)
            return y

    return PutAsyncOverlap


def make_sync_program(world_size, transfer_elems=65536, compute_iters=64):
    N = transfer_elems
    ITERS = compute_iters
    READ_TILES = N // TILE_COLS

    @pl.program
    class PutSyncOverlap:
        @pl.function(type=pl.FunctionType.InCore)
        def overlap_kernel(
            self,
            x: pl.Tensor[[1, N], pl.FP32],
            y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
            z: pl.Out[pl.Tensor[[1, TILE_COLS], pl.FP32]],
            dst: pld.DistributedTensor[[1, N], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
        ) -> pl.Tensor[[1, N], pl.FP32]:
            ctx = pld.get_comm_ctx(dst)
            my_rank = pld.rank(ctx)
            nranks = pld.nranks(ctx)
            peer = (my_rank + 1) % nranks

            # The same row through one [1, TILE_COLS] staging tile: the core moves every chunk itself.
            pld.tensor.put(dst, peer=peer, src=x, atomic=pld.AtomicType.None_, chunk_rows=1,
                           chunk_cols=TILE_COLS)

            # Identical compute, now serialised after the transfer.
            acc = pl.load(x, [0, 0], [1, TILE_COLS])
            step = pl.full([1, TILE_COLS], dtype=pl.FP32, value=1.0)
            for i in pl.range(ITERS):
                acc = pl.add(acc, step)
            z = pl.store(acc, [0, 0], z)

            pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

            for t in pl.range(READ_TILES):
                recv = pl.load(dst, [0, t * TILE_COLS], [1, TILE_COLS])
                y = pl.store(recv, [0, t * TILE_COLS], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            x: pl.Tensor[[1, N], pl.FP32],
            y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
            z: pl.Out[pl.Tensor[[1, TILE_COLS], pl.FP32]],
            dst: pld.DistributedTensor[[1, N], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
        ) -> pl.Tensor[[1, N], pl.FP32]:
            return self.overlap_kernel(x, y, z, dst, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            x: pl.Tensor[[world_size, 1, N], pl.FP32],
            y: pl.Out[pl.Tensor[[world_size, 1, N], pl.FP32]],
            z: pl.Out[pl.Tensor[[world_size, 1, TILE_COLS], pl.FP32]],
        ) -> pl.Tensor[[world_size, 1, N], pl.FP32]:
            dst_buf = pld.alloc_window_buffer([1, N], dtype=pl.FP32)
            signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                dst = pld.window(dst_buf, [1, N], dtype=pl.FP32)
                signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
                self.chip_orch(x[r], y[r], z[r], dst, signal, device=r)
            return y

    return PutSyncOverlap


if __name__ == "__main__":
    # Host test, skipped by ptodist: both programs must agree with each other and with the golden.
    import subprocess
    import tempfile

    import numpy as np

    nranks, n, iters = 2, 65536, 64
    x = np.random.default_rng(3).standard_normal((nranks, 1, n)).astype(np.float32)
    outs = {}
    with tempfile.TemporaryDirectory() as tmp:
        np.save(f"{tmp}/x.npy", x)
        for program in ("PutAsyncOverlap", "PutSyncOverlap"):
            subprocess.run(["ptodist", "run", __file__, "--program", program, "--ranks", str(nranks),
                            "--in", f"x={tmp}/x.npy", "--out-dir", f"{tmp}/{program}"], check=True)
            outs[program] = [np.load(f"{tmp}/{program}/{name}.npy") for name in ("y", "z")]
    z_golden = x[:, :, :TILE_COLS].copy()
    for _ in range(iters):
        z_golden += np.float32(1.0)  # same FP32 rounding order as the kernel's add loop
    for program, (y, z) in outs.items():
        assert np.array_equal(y, np.roll(x, 1, axis=0)), f"{program}: received row mismatch"
        assert np.array_equal(z, z_golden), f"{program}: compute mismatch"
    print("put_async_overlap: ok")
