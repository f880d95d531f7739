# RUN: ptodist check %s
# RUN: ptodist check --verify-diagnostics %s
# Near miss: a synchronous 2-D put with both chunk sizes and pipeline=True (two staging tiles in UB).
import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 64
COLS = 512


@pl.program
class PutPipelineChunks:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP16],
        dst: pld.DistributedTensor[[ROWS, COLS], pl.FP16],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        # 2 x [16, 256] FP16 staging tiles = 16 KiB of UB.
        pld.tensor.put(dst, peer=peer, src=x, atomic=pld.AtomicType.None_, chunk_rows=16, chunk_cols=256,
                       pipeline=True)
        pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
