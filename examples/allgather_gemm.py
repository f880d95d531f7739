"""N-rank all-gather + GEMM with communication overlapped by computation (class style, factory).

Each rank holds a row shard ``A_r`` of ``A`` (``[M_LOCAL, K]`` FP16) and the whole weight ``W``
(``[K, N]`` FP16); every rank computes the full ``C = A @ W`` (``[M, N]`` FP32, ``M = world_size *
M_LOCAL``). Instead of gathering ``A`` first and multiplying after, two kernels run concurrently on
each chip:
- ``comm_local_shard`` (vector cores) splits the shard into ``M_TILE``-row chunks, copies each chunk
  into its own slot of the gathered window, pushes it to every peer with ``pld.tensor.put`` and
  raises the cell ``[my_rank, chunk]`` of that peer's signal window;
- ``gemm_from_gathered`` (cube cores) first multiplies the local chunks, which need no
  communication, then, for every other rank's chunk, waits on exactly that chunk's signal cell and
  multiplies it out of the gathered window. Compute on chunk c overlaps the transfer of chunk c + 1.
The two are submitted in one ``pl.manual_scope`` (no dependency edge: they synchronise through the
signals), so they must be co-resident: ``comm_cores`` vector cores plus ``gemm_cores`` cube cores.

Sizes are factory parameters, bound with ``-D`` (``world_size`` is the rank count). The defaults run
in seconds on a CPU. The published configuration (pypto-lib's L3 all-gather GEMM) is
``M_LOCAL=2048, K=4096, N=4096``, tiles ``M 128 x K 256 x N 256``, 4 comm and 8 GEMM cores:
    ptodist run examples/allgather_gemm.py --ranks 4 -D m_local=2048 -D k=4096 -D n=4096
PyPTO multiplies Mat (L1) tiles and splits them for L0 itself; here the moves into L0 are written
out, so one W tile (``k_tile x n_tile`` FP16) must fit the 64 KiB L0B: hence ``k_tile=128`` by
default, the largest K tile that pairs with ``n_tile=256`` (the published K tile of 256 needs
``-D n_tile=128``; plan-memory names the tile that does not fit).

Rounds: signal cells count arrivals (``AtomicAdd``) and are waited with ``Ge 1``, so every round
must start from zeroed signal cells. The runtime re-zeroes the windows between rounds (``ptodist
bench``); a kernel that kept windows across rounds would instead wait for ``expected = round + 1``.
"""

import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, comm_cores=4, gemm_cores=8, m_local=256, k=512, n=512, m_tile=128,
                 k_tile=128, n_tile=256):
    M_LOCAL = m_local
    K = k
    N = n
    M = world_size * M_LOCAL
    M_TILE = m_tile
    K_TILE = k_tile
    N_TILE = n_tile
    # The shapes must divide evenly: chunks are the unit of both transfer and signalling.
    M_TILES = M_LOCAL // M_TILE
    K_TILES = K // K_TILE
    N_TILES = N // N_TILE
    # GEMM work items: one (chunk, N block) output tile each, dealt round-robin to the cube cores.
    GEMM_TASKS = M_TILES * N_TILES

    @pl.program
    class AllGatherGemm:
        @pl.function(type=pl.FunctionType.InCore)
        def comm_local_shard(
            self,
            local_a: pl.Tensor[[M_LOCAL, K], pl.FP16],
            gathered: pl.InOut[pld.DistributedTensor[[M, K], pl.FP16]],
            signal: pl.InOut[pld.DistributedTensor[[world_size, M_TILES], pl.INT32]],
        ) -> pld.DistributedTensor[[M, K], pl.FP16]:
            ctx = pld.get_comm_ctx(gathered)
            my_rank = pld.rank(ctx)
            nranks = pld.nranks(ctx)
            block_idx = pl.tile.get_block_idx()
            block_num = pl.tile.get_block_num()

            # Blocks stride over the chunks so comm_cores cores share the shard evenly.
            for chunk_idx in pl.range(block_idx, M_TILES, block_num):
                local_row = chunk_idx * M_TILE
                global_row = my_rank * M_LOCAL + local_row

                # Our own slot of the gathered matrix, so the window holds all of A afterwards.
                for kb in pl.range(K_TILES):
                    k0 = kb * K_TILE
                    chunk = pl.load(local_a, [local_row, k0], [M_TILE, K_TILE])
                    gathered = pl.store(chunk, [global_row, k0], gathered)

                for peer in pl.range(nranks):
                    if peer != my_rank:
                        # Straight from local GM into the peer's slot, one K tile of staging at a time.
                        pld.tensor.put(gathered, peer=peer, src=local_a, dst_offsets=[global_row, 0],
                                       src_offsets=[local_row, 0], shape=[M_TILE, K],
                                       atomic=pld.AtomicType.None_, chunk_rows=M_TILE, chunk_cols=K_TILE)
                        # One cell per (source rank, chunk): the consumer waits for exactly the
                        # rows it is about to read, not for the whole shard.
                        pld.system.notify(target=signal, peer=peer, offsets=[my_rank, chunk_idx], value=1,
                                          op=pld.NotifyOp.AtomicAdd)
            return gathered

        @pl.function(type=pl.FunctionType.AIC)
        def gemm_from_gathered(
            self,
            local_a: pl.Tensor[[M_LOCAL, K], pl.FP16],
            gathered: pld.DistributedTensor[[M, K], pl.FP16],
            signal: pld.DistributedTensor[[world_size, M_TILES], pl.INT32],
            weight: pl.Tensor[[K, N], pl.FP16],
            out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
        ) -> pl.Tensor[[M, N], pl.FP32]:
            ctx = pld.get_comm_ctx(gathered)
            my_rank = pld.rank(ctx)
            nranks = pld.nranks(ctx)
            block_idx = pl.tile.get_block_idx()
            block_num = pl.tile.get_block_num()

            # Local chunks first: they need no signal, so the cube cores start at once while the
            # first remote chunks are still in flight.
            for task in pl.range(block_idx, GEMM_TASKS, block_num):
                chunk_idx = task // N_TILES
                n0 = (task % N_TILES) * N_TILE
                local_row = chunk_idx * M_TILE
                acc = pl.create_tile([M_TILE, N_TILE], dtype=pl.FP32, target_memory=pl.Mem.Acc)
                # Two stages: the loads of K tile kb + 1 overlap the matmul of K tile kb.
                for kb in pl.pipeline(K_TILES, stage=2):
                    k0 = kb * K_TILE
                    a_mat = pl.load(local_a, [local_row, k0], [M_TILE, K_TILE], target_memory=pl.Mem.Mat)
                    w_mat = pl.load(weight, [k0, n0], [K_TILE, N_TILE], target_memory=pl.Mem.Mat)
                    a = pl.move(a_mat, target_memory=pl.Mem.Left)
                    w = pl.move(w_mat, target_memory=pl.Mem.Right)
                    # The first K tile initialises the accumulator; the rest accumulate into L0C.
                    if kb == 0:
                        acc = pl.matmul(a, w)
                    else:
                        acc = pl.matmul_acc(acc, a, w)
                out = pl.store(acc, [my_rank * M_LOCAL + local_row, n0], out)

            # Remote chunks in the same (chunk, N block) order the producers send them.
            for src_rank in pl.range(nranks):
                if src_rank != my_rank:
                    for task in pl.range(block_idx, GEMM_TASKS, block_num):
                        chunk_idx = task // N_TILES
                        n0 = (task % N_TILES) * N_TILE
                        row = src_rank * M_LOCAL + chunk_idx * M_TILE
                        # Acquire: after this wait the chunk's rows of our gathered window are valid.
                        pld.system.wait(signal=signal, offsets=[src_rank, chunk_idx], expected=1,
                                        cmp=pld.WaitCmp.Ge)
                        acc = pl.create_tile([M_TILE, N_TILE], dtype=pl.FP32, target_memory=pl.Mem.Acc)
                        for kb in pl.pipeline(K_TILES, stage=2):
                            k0 = kb * K_TILE
                            a_mat = pl.load(gathered, [row, k0], [M_TILE, K_TILE], target_memory=pl.Mem.Mat)
                            w_mat = pl.load(weight, [k0, n0], [K_TILE, N_TILE], target_memory=pl.Mem.Mat)
                            a = pl.move(a_mat, target_memory=pl.Mem.Left)
                            w = pl.move(w_mat, target_memory=pl.Mem.Right)
                            if kb == 0:
                                acc = pl.matmul(a, w)
                            else:
                                acc = pl.matmul_acc(acc, a, w)
                        out = pl.store(acc, [row, n0], out)
            return out

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            local_a: pl.Tensor[[M_LOCAL, K], pl.FP16],
            weight: pl.Tensor[[K, N], pl.FP16],
            out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
            gathered: pl.InOut[pld.DistributedTensor[[M, K], pl.FP16]],
            signal: pl.InOut[pld.DistributedTensor[[world_size, M_TILES], pl.INT32]],
        ) -> pl.Tensor[[M, N], pl.FP32]:
            # Manual scope: no automatic edge from the comm kernel to the GEMM kernel (the GEMM reads
            # `gathered`, which would otherwise serialise them). They meet through the signals.
            with pl.manual_scope():
                gathered, comm_task = pl.spmd_submit(self.comm_local_shard, local_a, gathered, signal,
                                                     core_num=comm_cores)
                out, gemm_task = pl.spmd_submit(self.gemm_from_gathered, local_a, gathered, signal, weight,
                                                out, core_num=gemm_cores)
            return out

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            inputs: pl.Tensor[[world_size, M_LOCAL, K], pl.FP16],
            weight: pl.Tensor[[K, N], pl.FP16],
            outputs: pl.Out[pl.Tensor[[world_size, M, N], pl.FP32]],
        ) -> pl.Tensor[[world_size, M, N], pl.FP32]:
            # Symmetric windows: the gathered matrix and one signal cell per (source rank, chunk).
            gathered_buf = pld.alloc_window_buffer([M, K], dtype=pl.FP16)
            signal_buf = pld.alloc_window_buffer([world_size, M_TILES], dtype=pl.INT32)
            for rank in pl.range(pld.world_size()):
                gathered = pld.window(gathered_buf, [M, K], dtype=pl.FP16)
                signal = pld.window(signal_buf, [world_size, M_TILES], dtype=pl.INT32)
                self.chip_orch(inputs[rank], weight, outputs[rank], gathered, signal, device=rank)
            return outputs

    return AllGatherGemm


if __name__ == "__main__":
    # Host test, skipped by ptodist: every rank's output is the full reference GEMM.
    import subprocess
    import tempfile

    import numpy as np

    nranks, m_local, k, n = 4, 256, 512, 512
    rng = np.random.default_rng(0)
    inputs = (rng.standard_normal((nranks, m_local, k)) * 0.1).astype(np.float16)
    weight = (rng.standard_normal((k, n)) * 0.1).astype(np.float16)
    with tempfile.TemporaryDirectory() as tmp:
        np.save(f"{tmp}/inputs.npy", inputs)
        np.save(f"{tmp}/weight.npy", weight)
        subprocess.run(["ptodist", "run", __file__, "--ranks", str(nranks), "--in", f"inputs={tmp}/inputs.npy",
                        "--in", f"weight={tmp}/weight.npy", "--out-dir", tmp], check=True)
        outputs = np.load(f"{tmp}/outputs.npy")
    reference = inputs.reshape(nranks * m_local, k).astype(np.float32) @ weight.astype(np.float32)
    for r in range(nranks):
        assert np.allclose(outputs[r], reference, rtol=1e-2, atol=1e-2), f"rank {r}: GEMM mismatch"
    print("allgather_gemm: ok")
