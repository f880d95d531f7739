# A factory whose reduction and dtype come from its caller (PyPTO's allreduce tests pass them as keyword
# arguments; the command line binds them with -D).
import pypto.language as pl
import pypto.language.distributed as pld


def build(n_ranks, size, *, reduce_op: pld.ReduceOp = pld.ReduceOp.Sum, dtype=pl.FP32):
    OP = reduce_op

    @pl.program
    class Reduce:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            data: pl.InOut[pld.DistributedTensor[[1, size], dtype]],
            signal: pl.InOut[pld.DistributedTensor[[n_ranks, 1], pl.INT32]],
        ) -> pld.DistributedTensor[[1, size], dtype]:
            data = pld.tensor.allreduce(data, signal, op=OP)
            return data

    return Reduce
