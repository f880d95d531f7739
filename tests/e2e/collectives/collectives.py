# The collectives as PyPTO defines them, one program per collective, each calling its collective
# twice on one signal window (the second call must see only the second inputs: the signal is reused);
# the host passes round k of x as x[k, r] (a two-index host subscript).
# check_collectives.py runs them at several rank counts and compares with an independent reference.
import pypto.language as pl
import pypto.language.distributed as pld


def make(world_size, size=64, rows=2, root=1, max_recv=3):
    NR = world_size
    SIZE = size
    ROWS = rows
    ROOT = root % world_size
    MR = max_recv

    # x: [2, NR, ROWS, SIZE]; out[r] = op-reduce over ranks of x[1], per op.
    @pl.program
    class AllReduce:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            first: pl.Tensor[[ROWS, SIZE], pl.FP32],
            second: pl.Tensor[[ROWS, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[5 * ROWS, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[ROWS, SIZE], pl.FP32]],
            ring_data: pl.InOut[pld.DistributedTensor[[ROWS, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            ring_signal: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]],
        ):
            pl.store(pl.load(first, [0, 0], [ROWS, SIZE]), [0, 0], data)
            data = pld.tensor.allreduce(data, signal)
            pl.store(pl.load(second, [0, 0], [ROWS, SIZE]), [0, 0], data)
            data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Sum)
            pl.store(pl.load(data, [0, 0], [ROWS, SIZE]), [0, 0], out)
            pl.store(pl.load(second, [0, 0], [ROWS, SIZE]), [0, 0], data)
            data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Max)
            pl.store(pl.load(data, [0, 0], [ROWS, SIZE]), [ROWS, 0], out)
            pl.store(pl.load(second, [0, 0], [ROWS, SIZE]), [0, 0], data)
            data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Min, mode="mesh", core_num=1)
            pl.store(pl.load(data, [0, 0], [ROWS, SIZE]), [2 * ROWS, 0], out)
            pl.store(pl.load(second, [0, 0], [ROWS, SIZE]), [0, 0], ring_data)
            ring_data = pld.tensor.allreduce(ring_data, ring_signal, mode="ring")
            pl.store(pl.load(ring_data, [0, 0], [ROWS, SIZE]), [3 * ROWS, 0], out)
            pl.store(pl.load(second, [0, 0], [ROWS, SIZE]), [0, 0], ring_data)
            ring_data = pld.tensor.allreduce(ring_data, ring_signal, op=pld.ReduceOp.Max, mode="ring")
            pl.store(pl.load(ring_data, [0, 0], [ROWS, SIZE]), [4 * ROWS, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            first: pl.Tensor[[ROWS, SIZE], pl.FP32],
            second: pl.Tensor[[ROWS, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[5 * ROWS, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[ROWS, SIZE], pl.FP32]],
            ring_data: pl.InOut[pld.DistributedTensor[[ROWS, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            ring_signal: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]],
        ):
            self.step(first, second, out, data, ring_data, signal, ring_signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[2, NR, ROWS, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, 5 * ROWS, SIZE], pl.FP32]],
        ):
            data_buf = pld.alloc_window_buffer([ROWS, SIZE], dtype=pl.FP32)
            ring_buf = pld.alloc_window_buffer([ROWS, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            ring_sig_buf = pld.alloc_window_buffer([2 * (NR - 1), NR], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [ROWS, SIZE], dtype=pl.FP32)
                ring_data = pld.window(ring_buf, [ROWS, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                ring_sig = pld.window(ring_sig_buf, [2 * (NR - 1), NR], dtype=pl.INT32)
                self.chip(x[0, r], x[1, r], out[r], data, ring_data, sig, ring_sig, device=r)

    # x: [2, NR, 1, SIZE]; out[r] = x[1][:, 0, :] stacked.
    @pl.program
    class AllGather:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            first: pl.Tensor[[1, SIZE], pl.FP32],
            second: pl.Tensor[[1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
        ):
            data = pld.tensor.allgather(first, data, signal)
            data = pld.tensor.allgather(second, data, signal)
            for src in pl.range(NR):
                pl.store(pl.load(data, [src, 0], [1, SIZE]), [src, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            first: pl.Tensor[[1, SIZE], pl.FP32],
            second: pl.Tensor[[1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
        ):
            self.step(first, second, out, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[2, NR, 1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, NR, SIZE], pl.FP32]],
        ):
            data_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR], dtype=pl.INT32)
                self.chip(x[0, r], x[1, r], out[r], data, sig, device=r)

    # x: [2, NR, NR, SIZE] (row j: chunk j); out[r] = sum over ranks of x[1][:, r, :].
    @pl.program
    class ReduceScatter:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            first: pl.Tensor[[NR, SIZE], pl.FP32],
            second: pl.Tensor[[NR, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            me = pld.rank(pld.get_comm_ctx(data))
            for j in pl.range(NR):
                pl.store(pl.load(first, [j, 0], [1, SIZE]), [j, 0], data)
            data = pld.tensor.reduce_scatter(data, signal, op=pld.ReduceOp.Sum)
            for j in pl.range(NR):
                pl.store(pl.load(second, [j, 0], [1, SIZE]), [j, 0], data)
            data = pld.tensor.reduce_scatter(data, signal)
            pl.store(pl.load(data, [me, 0], [1, SIZE]), [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            first: pl.Tensor[[NR, SIZE], pl.FP32],
            second: pl.Tensor[[NR, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(first, second, out, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[2, NR, NR, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
        ):
            data_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[0, r], x[1, r], out[r], data, sig, device=r)

    # x: [2, NR, ROWS, SIZE]; out[r] = x[1][ROOT]; root stages, the others do not.
    @pl.program
    class Broadcast:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            first: pl.Tensor[[ROWS, SIZE], pl.FP32],
            second: pl.Tensor[[ROWS, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[ROWS, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[ROWS, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            me = pld.rank(pld.get_comm_ctx(data))
            if me == ROOT:
                pl.store(pl.load(first, [0, 0], [ROWS, SIZE]), [0, 0], data)
            data = pld.tensor.broadcast(data, signal, root=ROOT)
            signal = pld.tensor.barrier(signal)
            if me == ROOT:
                pl.store(pl.load(second, [0, 0], [ROWS, SIZE]), [0, 0], data)
            data = pld.tensor.broadcast(data, signal, root=ROOT)
            pl.store(pl.load(data, [0, 0], [ROWS, SIZE]), [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            first: pl.Tensor[[ROWS, SIZE], pl.FP32],
            second: pl.Tensor[[ROWS, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[ROWS, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[ROWS, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(first, second, out, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[2, NR, ROWS, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, ROWS, SIZE], pl.FP32]],
        ):
            data_buf = pld.alloc_window_buffer([ROWS, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [ROWS, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[0, r], x[1, r], out[r], data, sig, device=r)

    # x: [2, NR, NR, SIZE] (row d: for rank d); out[r][s] = x[1][s][r].
    @pl.program
    class AllToAll:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            first: pl.Tensor[[NR, SIZE], pl.FP32],
            second: pl.Tensor[[NR, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            signal = pld.tensor.barrier(signal)
            data = pld.tensor.all_to_all(first, data, signal)
            data = pld.tensor.all_to_all(second, data, signal)
            signal = pld.tensor.barrier(signal)
            for src in pl.range(NR):
                pl.store(pl.load(data, [src, 0], [1, SIZE]), [src, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            first: pl.Tensor[[NR, SIZE], pl.FP32],
            second: pl.Tensor[[NR, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[NR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(first, second, out, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[2, NR, NR, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, NR, SIZE], pl.FP32]],
        ):
            data_buf = pld.alloc_window_buffer([NR, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[0, r], x[1, r], out[r], data, sig, device=r)

    # x: [NR, NR*MR, SIZE] (block d: rows for rank d); counts: [NR, NR, 1] INT32;
    # out[r] rows s*MR .. s*MR+min(counts[s][r], MR) = x[s] block r; recv[r][s] = min(counts[s][r], MR).
    @pl.program
    class AllToAllV:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            x: pl.Tensor[[NR * MR, SIZE], pl.FP32],
            counts: pl.Tensor[[NR, 1], pl.INT32],
            out: pl.Out[pl.Tensor[[NR * MR, SIZE], pl.FP32]],
            recv: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
            data: pl.InOut[pld.DistributedTensor[[NR * MR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            recv_counts: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            data = pld.tensor.all_to_all_v(x, data, signal, counts, recv_counts)
            for src in pl.range(NR):
                pl.store(pl.load(data, [src * MR, 0], [MR, SIZE]), [src * MR, 0], out)
                pl.write(recv, [src, 0], pl.read(recv_counts, [src, 0]))

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            x: pl.Tensor[[NR * MR, SIZE], pl.FP32],
            counts: pl.Tensor[[NR, 1], pl.INT32],
            out: pl.Out[pl.Tensor[[NR * MR, SIZE], pl.FP32]],
            recv: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
            data: pl.InOut[pld.DistributedTensor[[NR * MR, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
            recv_counts: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(x, counts, out, recv, data, signal, recv_counts)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[NR, NR * MR, SIZE], pl.FP32],
            counts: pl.Tensor[[NR, NR, 1], pl.INT32],
            out: pl.Out[pl.Tensor[[NR, NR * MR, SIZE], pl.FP32]],
            recv: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]],
        ):
            data_buf = pld.alloc_window_buffer([NR * MR, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            recv_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [NR * MR, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                rc = pld.window(recv_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[r], counts[r], out[r], recv[r], data, sig, rc, device=r)

    # Barriers only, three on one signal; out[r] = the signal cells after them (all zero).
    @pl.program
    class Barrier:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            out: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            for i in pl.range(3):
                signal = pld.tensor.barrier(signal)
            signal = pld.tensor.barrier(signal)
            for src in pl.range(NR):
                pl.write(out, [src, 0], pl.read(signal, [src, 0]))

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            out: pl.Out[pl.Tensor[[NR, 1], pl.INT32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(out, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, out: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]]):
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(out[r], sig, device=r)

    return AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll, AllToAllV, Barrier
