# Hazard 6 (core-budget deadlock): a consumer kernel on all 4 vector cores of the `cpu` profile waits
# for a signal that only the producer kernel, submitted beside it in the same manual scope, sends;
# the producer's block finds no free core. check-core-budget rejects the scope statically; with it
# off, check mode must name the blocked waits and the unscheduled block that could release them.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --profile cpu --mode check --seed 1 --runs 20 --no-pass check-core-budget > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: core-budget deadlock: kernel 'producer' has 1 block that never got a vector core (chip 'cpu' has 4, all held by blocked blocks)
# CHECK: note: rank 0, orchestrator (chip) waits in end of pl.manual_scope on kernel 'consumer'
# CHECK: note: rank 0, vector core 3 (block 3/4 of consumer) waits in pld.system.wait on signal[0, 0] (sees 0, expects >= 1)
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class OverBudget:
    @pl.function(type=pl.FunctionType.AIV)
    def consumer(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        # LINE-DAG: core_budget_deadlock.py:[[@LINE+1]]:9: note: rank 0, vector core 0 (block 0/4 of consumer) waits
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        t = pl.load(x, [0, 0], [1, SIZE])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def producer(
        self,
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ) -> pld.DistributedTensor[[1, 1], pl.INT32]:
        ctx = pld.get_comm_ctx(signal)
        pld.system.notify(signal, peer=pld.rank(ctx), offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        return signal

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        # Bug: 4 + 1 vector cores must be resident together, and the chip has 4.
        # LINE-DAG: core_budget_deadlock.py:[[@LINE+1]]:9: note: rank 0, orchestrator (chip) waits in end of pl.manual_scope
        with pl.manual_scope():
            y, t1 = pl.spmd_submit(self.consumer, x, y, signal, core_num=4)
            # LINE-DAG: core_budget_deadlock.py:[[@LINE+1]]:26: error: check: core-budget deadlock
            signal, t2 = pl.spmd_submit(self.producer, signal, core_num=1)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    ):
        signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip(x[r], y[r], signal, device=r)
