# The put / put_async crossover that lower-collectives' rule is based on (docs/collectives.md): every
# rank pushes one [1, size] FP32 row to each peer, as allgather does, with the synchronous staged put
# (program `sync`) or with put_async on one DMA session, each event waited before the next put, as
# lower-collectives emits it (program `dma`), then a notify/wait handshake. Run:
#   ptodist bench bench/put_crossover.py --program sync --ranks 4 -D size=N --warmup 3 --rounds 20
import pypto.language as pl
import pypto.language.distributed as pld


def make(world_size, size=1024):
    NR = world_size
    SIZE = size
    CHUNK = min(size, 16384)  # the staged put goes through UB in 64 KiB pieces, as lower-collectives cuts it

    @pl.program
    class sync:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            src: pld.DistributedTensor[[1, SIZE], pl.FP32],
            dst: pld.DistributedTensor[[NR, SIZE], pl.FP32],
            signal: pld.DistributedTensor[[NR], pl.INT32],
        ):
            ctx = pld.get_comm_ctx(dst)
            me = pld.rank(ctx)
            for k in pl.range(1, NR):
                peer = (me + k) % NR
                pld.tensor.put(dst, peer, src, dst_offsets=[me, 0], src_offsets=[0, 0], shape=[1, SIZE], chunk_cols=CHUNK)
            for k in pl.range(1, NR):
                peer = (me + k) % NR
                pld.system.notify(signal, peer=peer, offsets=[me], value=1, op=pld.NotifyOp.AtomicAdd)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[NR, 1, SIZE], pl.FP32]):
            src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            dst_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
                dst = pld.window(dst_buf, [NR, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR], dtype=pl.INT32)
                self.step(src, dst, sig, device=r)

    @pl.program
    class dma:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            src: pld.DistributedTensor[[1, SIZE], pl.FP32],
            dst: pld.DistributedTensor[[NR, SIZE], pl.FP32],
            signal: pld.DistributedTensor[[NR], pl.INT32],
        ):
            ctx = pld.get_comm_ctx(dst)
            me = pld.rank(ctx)
            sess = pld.system.async_session()
            for k in pl.range(1, NR):
                peer = (me + k) % NR
                evt = pld.tensor.put_async(dst, peer, src, sess, dst_offsets=[me, 0], src_offsets=[0, 0], shape=[1, SIZE])
                pld.system.wait_async_event(evt, sess)
            for k in pl.range(1, NR):
                peer = (me + k) % NR
                pld.system.notify(signal, peer=peer, offsets=[me], value=1, op=pld.NotifyOp.AtomicAdd)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[NR, 1, SIZE], pl.FP32]):
            src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            dst_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
                dst = pld.window(dst_buf, [NR, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR], dtype=pl.INT32)
                self.step(src, dst, sig, device=r)

    return sync, dma
