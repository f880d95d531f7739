# allgather, all_to_all and all_to_all_v (MAX_RECV = 2) of 256 KiB rows: the size from which
# lower-collectives pushes with put_async on the DMA engine (docs/collectives.md, the put_async rule);
# then a broadcast from rank 1 of a 256 KiB window, which every other rank pulls with one get_async.
# The rows go straight from the host tensors (GM) into the windows; the results come back to the host
# in 16 KiB pieces.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 65536  # FP32: 256 KiB a row
PIECE = 4096


def make(world_size):
    NR = world_size

    @pl.program
    class LargeAllGather:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            table: pl.Tensor[[NR, SIZE], pl.FP32],
            gathered: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            swapped: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            vtable: pl.Tensor[[2 * NR, SIZE], pl.FP32],
            counts: pl.Tensor[[NR], pl.INT32],
            shuffled: pl.InOut[pld.DistributedTensor[[2 * NR, SIZE], pl.FP32]],
            recv: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            signal: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
            bcast: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
            out: pl.Out[pl.Tensor[[4 * NR + 1, SIZE], pl.FP32]],
        ):
            for p in pl.range(SIZE // PIECE):
                staged = pl.load(x, [0, p * PIECE], [1, PIECE])
                pl.store(staged, [0, p * PIECE], bcast)
            gathered = pld.tensor.allgather(x, gathered, signal)
            swapped = pld.tensor.all_to_all(table, swapped, signal)
            shuffled = pld.tensor.all_to_all_v(vtable, shuffled, signal, counts, recv)
            for r in pl.range(NR):
                for p in pl.range(SIZE // PIECE):
                    a = pl.load(gathered, [r, p * PIECE], [1, PIECE])
                    pl.store(a, [r, p * PIECE], out)
                    b = pl.load(swapped, [r, p * PIECE], [1, PIECE])
                    pl.store(b, [NR + r, p * PIECE], out)
            for r in pl.range(2 * NR):
                for p in pl.range(SIZE // PIECE):
                    c = pl.load(shuffled, [r, p * PIECE], [1, PIECE])
                    pl.store(c, [2 * NR + r, p * PIECE], out)
            bcast = pld.tensor.broadcast(bcast, signal, root=1)
            for p in pl.range(SIZE // PIECE):
                d = pl.load(bcast, [0, p * PIECE], [1, PIECE])
                pl.store(d, [4 * NR, p * PIECE], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            x: pl.Tensor[[1, SIZE], pl.FP32],
            table: pl.Tensor[[NR, SIZE], pl.FP32],
            gathered: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            swapped: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            vtable: pl.Tensor[[2 * NR, SIZE], pl.FP32],
            counts: pl.Tensor[[NR], pl.INT32],
            shuffled: pl.InOut[pld.DistributedTensor[[2 * NR, SIZE], pl.FP32]],
            recv: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            signal: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
            bcast: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
            out: pl.Out[pl.Tensor[[4 * NR + 1, SIZE], pl.FP32]],
        ):
            self.step(x, table, gathered, swapped, vtable, counts, shuffled, recv, signal, bcast, out)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[NR, 1, SIZE], pl.FP32],
            table: pl.Tensor[[NR, NR, SIZE], pl.FP32],
            vtable: pl.Tensor[[NR, 2 * NR, SIZE], pl.FP32],
            counts: pl.Tensor[[NR, NR], pl.INT32],
            out: pl.Out[pl.Tensor[[NR, 4 * NR + 1, SIZE], pl.FP32]],
        ):
            g_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            s_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            v_buf = pld.alloc_window_buffer([2 * NR, SIZE], dtype=pl.FP32)
            rc_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            sig_buf = pld.alloc_window_buffer([NR], dtype=pl.INT32)
            b_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            for r in pl.range(pld.world_size()):
                g = pld.window(g_buf, [NR, SIZE], dtype=pl.FP32)
                s = pld.window(s_buf, [NR, SIZE], dtype=pl.FP32)
                v = pld.window(v_buf, [2 * NR, SIZE], dtype=pl.FP32)
                rc = pld.window(rc_buf, [NR, 1], dtype=pl.INT32)
                sig = pld.window(sig_buf, [NR], dtype=pl.INT32)
                b = pld.window(b_buf, [1, SIZE], dtype=pl.FP32)
                self.chip(x[r], table[r], g, s, vtable[r], counts[r], v, rc, sig, b, out[r], device=r)

    return LargeAllGather
