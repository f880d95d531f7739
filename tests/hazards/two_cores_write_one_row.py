# Hazard 2 (write/write race), two cores of one rank: the blocks of an SPMD kernel should each store
# their own row of the window, but the row index ignores the block index, so both blocks write row 0
# with nothing ordering them.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: write/write race on window data: rank 0, vector core 1 (block 1/2 of fill_rows) writes bytes [0, 256) of 'rows' in rank 0's window
# CHECK: note: also written by rank 0, vector core 0 (block 0/2 of fill_rows) (pl.store), unordered with this write
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class TwoCoresOneRow:
    @pl.function(type=pl.FunctionType.AIV)
    def fill_rows(
        self,
        x: pl.Tensor[[2, SIZE], pl.FP32],
        rows: pld.DistributedTensor[[2, SIZE], pl.FP32],
    ) -> pld.DistributedTensor[[2, SIZE], pl.FP32]:
        block = pl.tile.get_block_idx()
        t = pl.load(x, [block, 0], [1, SIZE])
        # Bug: the row should be `block`.
        # LINE-DAG: two_cores_write_one_row.py:[[@LINE+2]]:16: error: check: write/write race on window data
        # LINE-DAG: two_cores_write_one_row.py:[[@LINE+1]]:16: note: also written by
        rows = pl.store(t, [0, 0], rows)
        return rows

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[2, SIZE], pl.FP32],
        rows: pld.DistributedTensor[[2, SIZE], pl.FP32],
    ) -> pld.DistributedTensor[[2, SIZE], pl.FP32]:
        rows, task = pl.spmd_submit(self.fill_rows, x, rows, core_num=2)
        return rows

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[pl.dynamic("NR"), 2, SIZE], pl.FP32]):
        rows_buf = pld.alloc_window_buffer([2, SIZE], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            rows = pld.window(rows_buf, [2, SIZE], dtype=pl.FP32)
            self.chip(x[r], rows, device=r)
