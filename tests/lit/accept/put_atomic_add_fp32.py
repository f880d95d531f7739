# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: an atomic-add put on FP32 (the synchronous put takes atomic=; put_async does not).
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 8
COLS = 128


@pl.program
class PutAtomicAddFp32:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        partial: pl.Tensor[[ROWS, COLS], pl.FP32],
        acc: pld.DistributedTensor[[ROWS, COLS], pl.FP32],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(acc)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        pld.tensor.put(acc, peer=peer, src=partial, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[ROWS, COLS],
                       atomic=pld.AtomicType.Add)
        pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
