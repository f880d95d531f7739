"""Deferred completion in `ptodist predict` (tests/e2e/predict_test.py).

On each rank, in a manual scope: a waiter registers two conditions on the rank's own signal
(pld.system.defer_wait on cells 0 and 1) and gives its core back; a consumer with deps=[wait_tid]
copies x to y; a publisher notifies one cell, fills and doubles a [1, cols] FP32 tile `adds` times
(vector work), then notifies the other cell (`late` says which cell comes last). The consumer may
start only once both conditions hold, i.e. after the publisher's second notify has arrived: in
virtual time its first op starts at that notify + notify_latency_us + wait_wake_us, whichever
condition the waiter registered first. Output: y == x."""

import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, cols=4096, adds=64, late=0):
    early = 1 - late

    @pl.program
    class DeferredPredict:
        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            x: pl.Tensor[[1, cols], pl.FP32],
            y: pl.Out[pl.Tensor[[1, cols], pl.FP32]],
            signal: pl.InOut[pld.DistributedTensor[[1, 2], pl.INT32]],
            me: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[1, cols], pl.FP32]:
            with pl.manual_scope():
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as wait_tid:
                    pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
                    pld.system.defer_wait(signal, offsets=[0, 1], expected=1, cmp=pld.WaitCmp.Ge)
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[wait_tid]) as consumer_tid:
                    t = pl.load(x, [0, 0], [1, cols])
                    y = pl.store(t, [0, 0], y)
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                    pld.system.notify(signal, peer=me, offsets=[0, early], value=1, op=pld.NotifyOp.Set)
                    s = pl.full([1, cols], dtype=pl.FP32, value=1.0)
                    for k in pl.range(adds):
                        s = pl.add(s, s)
                    pld.system.notify(signal, peer=me, offsets=[0, late], value=1, op=pld.NotifyOp.Set)
            return y

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            x: pl.Tensor[[world_size, 1, cols], pl.FP32],
            y: pl.Out[pl.Tensor[[world_size, 1, cols], pl.FP32]],
        ) -> pl.Tensor[[world_size, 1, cols], pl.FP32]:
            signal_buf = pld.alloc_window_buffer([1, 2], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                signal = pld.window(signal_buf, [1, 2], dtype=pl.INT32)
                self.chip(x[r], y[r], signal, r, device=r)
            return y

    return DeferredPredict
