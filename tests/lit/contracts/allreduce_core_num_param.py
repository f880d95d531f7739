# RUN: ptodist check %s --verify-diagnostics -D cores=2
# RUN: %python %S/../cli/Inputs/exit_code.py 1 ptodist check %s -D cores=0 --program Host 2>&1 | FileCheck %s --check-prefix=ZERO
# allreduce: core_num may be a factory parameter (PyPTO's multicore host test passes core_num=cores);
# it is checked once bound: positive, and 1 in a kernel.
# ZERO: error: pld.tensor.allreduce: 'core_num' must be a positive integer, got 0
import pypto.language as pl
import pypto.language.distributed as pld


def build(n_ranks, cores):
    @pl.program
    class Host:
        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(self, x: pl.Tensor[[n_ranks, 1, 64], pl.FP32]):
            buf = pld.alloc_window_buffer(64 * 4)
            sig_buf = pld.alloc_window_buffer(n_ranks * 8 * 4)
            data = pld.window(buf, [1, 64], dtype=pl.FP32)
            signal = pld.window(sig_buf, [n_ranks, 8], dtype=pl.INT32)
            data = pld.tensor.allreduce(data, signal, core_num=cores)

    return Host


def build_kernel(n_ranks, cores):
    @pl.program
    class Kernel:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[n_ranks, 1], pl.INT32]],
        ):
            # expected-error@+1 {{core_num > 1 is for a host orchestrator's allreduce}}
            data = pld.tensor.allreduce(data, signal, core_num=cores)

    return Kernel
