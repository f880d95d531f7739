# RUN: ptodist check %s -D size=8
# RUN: %python %S/../cli/Inputs/exit_code.py 1 ptodist check %s -D size=0 2>&1 | FileCheck %s --check-prefix=ZERO
# RUN: %python %S/../cli/Inputs/exit_code.py 1 ptodist check %s -D size=-8 2>&1 | FileCheck %s --check-prefix=NEG
# A collective whose target has an empty row (a factory parameter bound to 0) is an error at the call;
# it used to end lower-collectives with SIGFPE (a chunk of 0 columns divided the row by 0).
# ZERO: collective_empty_target.py:[[@LINE+17]]:19: error: pld.tensor.allreduce: 'target' must have positive dims to be cut into tiles, got [1, 0]
# ZERO: collective_empty_target.py:[[@LINE+17]]:20: error: pld.tensor.allgather: 'target' must be 2-D with a static, positive row length to be cut into tiles, got [2, 0]
# NEG: error: pld.tensor.allreduce: 'target' must have positive dims to be cut into tiles, got [1, -8]
import pypto.language as pl
import pypto.language.distributed as pld


def build(n_ranks, size):
    @pl.program
    class Empty:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            row: pl.InOut[pld.DistributedTensor[[1, size], pl.FP32]],
            rows: pl.InOut[pld.DistributedTensor[[n_ranks, size], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[n_ranks], pl.INT32]],
        ):
            row = pld.tensor.allreduce(row, signal)
            rows = pld.tensor.allgather(row, rows, signal)

    return Empty
