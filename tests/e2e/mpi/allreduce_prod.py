# pld.ReduceOp.Prod, the one reduction tests/e2e/collectives/collectives.py's AllReduce does not call:
# an allreduce with op=Prod, twice on one signal (the second must see only the second inputs), mesh
# mode. check_collectives_mpi.py runs it under mpirun and compares with a product computed in Python.
import pypto.language as pl
import pypto.language.distributed as pld


def make(world_size, size=64):
    NR = world_size
    SIZE = size

    # x: [2, NR, 1, SIZE]; out[r] = product over ranks of x[1].
    @pl.program
    class AllReduceProd:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            first: pl.Tensor[[1, SIZE], pl.FP32],
            second: pl.Tensor[[1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            pl.store(pl.load(first, [0, 0], [1, SIZE]), [0, 0], data)
            data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Prod)
            pl.store(pl.load(second, [0, 0], [1, SIZE]), [0, 0], data)
            data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Prod, mode="mesh")
            pl.store(pl.load(data, [0, 0], [1, SIZE]), [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            first: pl.Tensor[[1, SIZE], pl.FP32],
            second: pl.Tensor[[1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
            data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
        ):
            self.step(first, second, out, data, signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[2, NR, 1, SIZE], pl.FP32],
            out: pl.Out[pl.Tensor[[NR, 1, SIZE], pl.FP32]],
        ):
            data_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                data = pld.window(data_buf, [1, SIZE], dtype=pl.FP32)
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(x[0, r], x[1, r], out[r], data, sig, device=r)

    return AllReduceProd
