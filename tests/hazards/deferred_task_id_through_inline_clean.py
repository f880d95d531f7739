# The waiter's task id crosses inline functions, as in pypto-lib's moe.py: one inline function returns
# the `as` handle of its waiter scope, another takes it as a pl.Scalar[pl.TASK_ID] parameter (PyPTO's
# other spelling of pl.TaskId) and puts it in its consumer's deps, so check mode finds nothing. Without
# the deps entry the same program is deferred_consumer_without_deps.py's hazard.
# RUN: ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 | FileCheck %s
# CHECK: check mode: 20 run(s), seeds 1..20: no hazard
import pypto.language as pl
import pypto.language.distributed as pld

WIDTH = 16


@pl.program
class DeferredThroughInline:
    @pl.function(type=pl.FunctionType.Inline)
    def arm(self, signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as wait_tid:
            pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        return wait_tid

    @pl.function(type=pl.FunctionType.Inline)
    def consume(
        self,
        payload: pld.DistributedTensor[[1, WIDTH], pl.INT32],
        out: pl.Out[pl.Tensor[[1, WIDTH], pl.INT32]],
        arrived: pl.Scalar[pl.TASK_ID],
    ):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[arrived]):
            got = pl.load(payload, [0, 0], [1, WIDTH])
            out = pl.store(got, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, WIDTH], pl.INT32],
        out: pl.Out[pl.Tensor[[1, WIDTH], pl.INT32]],
        payload: pl.InOut[pld.DistributedTensor[[1, WIDTH], pl.INT32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[1, WIDTH], pl.INT32]:
        with pl.manual_scope():
            wait_tid = self.arm(signal)
            out = self.consume(payload, out, wait_tid)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                mine = pl.load(x, [0, 0], [1, WIDTH])
                pld.tile.remote_store(mine, target=payload, peer=peer, offsets=[0, 0])
                pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[2, 1, WIDTH], pl.INT32],
        out: pl.Out[pl.Tensor[[2, 1, WIDTH], pl.INT32]],
    ) -> pl.Tensor[[2, 1, WIDTH], pl.INT32]:
        payload_buf = pld.alloc_window_buffer(WIDTH * pl.INT32.get_byte())
        signal_buf = pld.alloc_window_buffer(pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            payload = pld.window(payload_buf, [1, WIDTH], dtype=pl.INT32)
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip(x[r], out[r], payload, signal, (r + 1) % pld.world_size(), device=r)
        return out
