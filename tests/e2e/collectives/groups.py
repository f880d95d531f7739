# Two overlapping communication groups on 4 ranks, as PyPTO forms them: the windows the host hands to
# devices {0, 1, 2} form group A, those handed to {1, 2, 3} group B. Each group allreduces its
# members' inputs with group-local ranks (rank 1 is group rank 1 in A and 0 in B) and records its
# pld.rank / pld.nranks. check_groups.py compares with a reference.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class TwoGroups:
    @pl.function(type=pl.FunctionType.InCore)
    def step(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        ids: pl.Out[pl.Tensor[[1, 2], pl.INT32]],
        data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]],
    ):
        ctx = pld.get_comm_ctx(data)
        pl.write(ids, [0, 0], pld.rank(ctx))
        pl.write(ids, [0, 1], pld.nranks(ctx))
        pl.store(pl.load(inp, [0, 0], [1, SIZE]), [0, 0], data)
        data = pld.tensor.allreduce(data, signal)
        pl.store(pl.load(data, [0, 0], [1, SIZE]), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        inp: pl.Tensor[[1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        ids: pl.Out[pl.Tensor[[1, 2], pl.INT32]],
        data: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[3, 1], pl.INT32]],
    ):
        self.step(inp, out, ids, data, signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[4, 1, SIZE], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 4, 1, SIZE], pl.FP32]],
        ids: pl.Out[pl.Tensor[[2, 4, 1, 2], pl.INT32]],
    ):
        data_a = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        sig_a = pld.alloc_window_buffer([3, 1], dtype=pl.INT32)
        data_b = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        sig_b = pld.alloc_window_buffer([3, 1], dtype=pl.INT32)
        for r in pl.range(3):
            data = pld.window(data_a, [1, SIZE], dtype=pl.FP32)
            sig = pld.window(sig_a, [3, 1], dtype=pl.INT32)
            self.chip(x[r], out[0, r], ids[0, r], data, sig, device=r)
        for r in pl.range(1, 4):
            data = pld.window(data_b, [1, SIZE], dtype=pl.FP32)
            sig = pld.window(sig_b, [3, 1], dtype=pl.INT32)
            self.chip(x[r], out[1, r], ids[1, r], data, sig, device=r)
