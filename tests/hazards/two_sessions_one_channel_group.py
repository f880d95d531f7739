# Hazard 4 (session re-initialised): two kernels of one chip run concurrently (one manual scope) and
# each opens an async session on channel group 0. The second session's init resets the channel
# group while the first kernel's transfer may be outstanding on it. Each kernel is legal on its own
# (one session per kernel), so only check mode sees the two together.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: async session re-initialised on channel group 0 while another session's event is outstanding: rank 0, vector core 1 (block 0/1 of send_cols) builds a session on rank 0's sync_id=0
# CHECK: note: outstanding event issued here by rank 0, vector core 0 (block 0/1 of send_rows) (pld.tile.put_async); wait for it before building another session on sync_id=0
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class TwoSessions:
    @pl.function(type=pl.FunctionType.AIV)
    def send_rows(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        rows: pld.DistributedTensor[[1, SIZE], pl.FP32],
    ) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        ctx = pld.get_comm_ctx(rows)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        sess = pld.system.async_session(sync_id=0)
        # LINE-DAG: two_sessions_one_channel_group.py:[[@LINE+1]]:15: note: outstanding event issued here
        evt = pld.tensor.put_async(rows, peer, x, sess)
        pld.system.wait_async_event(evt, sess)
        return rows

    @pl.function(type=pl.FunctionType.AIV)
    def send_cols(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        cols: pld.DistributedTensor[[1, SIZE], pl.FP32],
    ) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        ctx = pld.get_comm_ctx(cols)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        # Bug: the same channel group as send_rows, which runs at the same time; use sync_id=1.
        # LINE-DAG: two_sessions_one_channel_group.py:[[@LINE+1]]:16: error: check: async session re-initialised
        sess = pld.system.async_session(sync_id=0)
        evt = pld.tensor.put_async(cols, peer, x, sess)
        pld.system.wait_async_event(evt, sess)
        return cols

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        rows: pld.DistributedTensor[[1, SIZE], pl.FP32],
        cols: pld.DistributedTensor[[1, SIZE], pl.FP32],
    ) -> pld.DistributedTensor[[1, SIZE], pl.FP32]:
        with pl.manual_scope():
            rows, t1 = pl.spmd_submit(self.send_rows, x, rows, core_num=1)
            cols, t2 = pl.spmd_submit(self.send_cols, x, cols, core_num=1)
        return rows

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]):
        rows_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        cols_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            rows = pld.window(rows_buf, [1, SIZE], dtype=pl.FP32)
            cols = pld.window(cols_buf, [1, SIZE], dtype=pl.FP32)
            self.chip(x[r], rows, cols, device=r)
