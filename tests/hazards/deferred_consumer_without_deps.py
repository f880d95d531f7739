# Hazard 1 (unordered read) with deferred completion: the consumer reads the payload that the
# waiter's condition guards, but it is not submitted with deps=[wait_tid], so nothing orders the
# peer's remote store before its load. Its near miss, deferred_consumer_with_deps_clean.py, differs
# only in the deps.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# CHECK: error: check: unordered read of window data: rank {{[01]}}, vector core {{[0-9]+}} (block 0/1 of consumer) reads bytes [0, 64) of 'payload'
# CHECK: note: written by rank {{[01]}}, vector core {{[0-9]+}} (block 0/1 of publisher) (pld.tile.remote_store); nothing orders that write before the read
import pypto.language as pl
import pypto.language.distributed as pld

WIDTH = 16


@pl.program
class Deferred:
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
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as wait_tid:
                pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
            # Bug: the consumer needs deps=[wait_tid].
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer"):
                got = pl.load(payload, [0, 0], [1, WIDTH])
                out = pl.store(got, [0, 0], out)
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
