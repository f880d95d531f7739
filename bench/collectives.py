# The collectives benchmark's programs (bench/collectives_bench.sh, docs/benchmarks.md): one program
# per collective, whose kernel makes ITERS back-to-back calls of that collective on one signal window
# (the signal clears itself after every call), so a round divided by ITERS is the time of one call with
# the round's set-up spread thin. Run with --persistent: the windows keep their contents across rounds.
#
# Sizes follow MPI's count arguments: BLOCK fp32 elements is what one rank contributes to one peer or
# to the result: the allreduce vector, the allgather contribution, the reduce_scatter block (recvcount),
# the all_to_all per-pair block, the broadcast message. BLOCK must be a multiple of 1024 (4 KiB).
# The data are whatever the windows hold (zeros); the numbers are checked by tests/e2e/collectives.
import pypto.language as pl
import pypto.language.distributed as pld


def make(world_size, block=1024, iters=10):
    NR = world_size
    BLOCK = block
    ROWS = block // 1024  # allreduce / broadcast target: [ROWS, 1024]
    ITERS = iters

    @pl.program
    class AllReduce:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            data: pl.InOut[pld.DistributedTensor[[ROWS, 1024], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            for i in pl.range(ITERS):
                data = pld.tensor.allreduce(data, signal)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            data: pl.InOut[pld.DistributedTensor[[ROWS, 1024], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            data_buf = pld.alloc_window_buffer([ROWS, 1024], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [ROWS, 1024], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(data, sig, device=r)

    @pl.program
    class AllGather:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            local: pl.Tensor[[1, BLOCK], pl.FP32],
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
        ):
            for i in pl.range(ITERS):
                data = pld.tensor.allgather(local, data, signal)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            local: pl.Tensor[[1, BLOCK], pl.FP32],
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
        ):
            self.step(local, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[NR, 1, BLOCK], pl.FP32]):
            data_buf = pld.alloc_window_buffer([NR, BLOCK], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, BLOCK], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR], dtype=pl.INT32)
                self.chip(x[r], data, sig, device=r)

    @pl.program
    class ReduceScatter:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            for i in pl.range(ITERS):
                data = pld.tensor.reduce_scatter(data, signal)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            data_buf = pld.alloc_window_buffer([NR, BLOCK], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, BLOCK], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(data, sig, device=r)

    @pl.program
    class AllToAll:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            src: pl.Tensor[[NR, BLOCK], pl.FP32],
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            for i in pl.range(ITERS):
                data = pld.tensor.all_to_all(src, data, signal)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            src: pl.Tensor[[NR, BLOCK], pl.FP32],
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(src, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[NR, NR, BLOCK], pl.FP32]):
            data_buf = pld.alloc_window_buffer([NR, BLOCK], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, BLOCK], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[r], data, sig, device=r)

    # One row per peer (MAX_RECV = 1); the counts say every row is valid (zeros read as count 0: the
    # whole block moves either way, docs/passes.md).
    @pl.program
    class AllToAllV:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            src: pl.Tensor[[NR, BLOCK], pl.FP32],
            counts: pl.Tensor[[NR, 1], pl.INT32],
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            recv_counts: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            for i in pl.range(ITERS):
                data = pld.tensor.all_to_all_v(src, data, signal, counts, recv_counts)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            src: pl.Tensor[[NR, BLOCK], pl.FP32],
            counts: pl.Tensor[[NR, 1], pl.INT32],
            data: pl.InOut[pld.DistributedTensor[[NR, BLOCK], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            recv_counts: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(src, counts, data, signal, recv_counts)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[NR, NR, BLOCK], pl.FP32], counts: pl.Tensor[[NR, NR, 1], pl.INT32]):
            data_buf = pld.alloc_window_buffer([NR, BLOCK], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            recv_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, BLOCK], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                rc = pld.window(recv_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[r], counts[r], data, sig, rc, device=r)

    @pl.program
    class Broadcast:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            data: pl.InOut[pld.DistributedTensor[[ROWS, 1024], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            for i in pl.range(ITERS):
                data = pld.tensor.broadcast(data, signal, root=0)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            data: pl.InOut[pld.DistributedTensor[[ROWS, 1024], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            data_buf = pld.alloc_window_buffer([ROWS, 1024], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [ROWS, 1024], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(data, sig, device=r)

    @pl.program
    class Barrier:
        @pl.function(type=pl.FunctionType.InCore)
        def step(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            for i in pl.range(ITERS):
                signal = pld.tensor.barrier(signal)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            self.step(signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(sig, device=r)

    return AllReduce, AllGather, ReduceScatter, AllToAll, AllToAllV, Broadcast, Barrier
