# Deferred completion (pld.system.defer_wait) on a ring: every rank submits WAITERS waiter tasks, each
# registering "my signal >= epoch", and beside each a consumer task that depends on its waiter and
# copies the payload the left neighbour put into this rank's window; the publisher that puts this
# rank's payload to its right neighbour and notifies it is submitted last. With WAITERS at the chip's
# vector-core count, blocking waiters would hold every core and the publisher could never run: only a
# waiter that frees its core lets the ring finish. `missing` (factory parameter) makes rank 0's
# publisher skip its notify, so rank 1's conditions are never satisfied: a hang to be reported.
import pypto.language as pl
import pypto.language.distributed as pld

WIDTH = 16


def make_program(waiters=48, missing=0):
    WAITERS = waiters
    MISSING = missing

    @pl.program
    class Deferred:
        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            x: pl.Tensor[[1, WIDTH], pl.INT32],
            out: pl.Out[pl.Tensor[[WAITERS, WIDTH], pl.INT32]],
            payload: pl.InOut[pld.DistributedTensor[[1, WIDTH], pl.INT32]],
            signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
            right: pl.Scalar[pl.INT32],
            me: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[WAITERS, WIDTH], pl.INT32]:
            with pl.manual_scope():
                for slot in pl.range(WAITERS):
                    with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as wait_tid:
                        epoch: pl.Scalar[pl.INT32] = pl.read(x, [0, 0])
                        pld.system.defer_wait(signal, offsets=[0, 0], expected=epoch, cmp=pld.WaitCmp.Ge)
                    with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[wait_tid]):
                        got = pl.load(payload, [0, 0], [1, WIDTH])
                        out = pl.store(got, [slot, 0], out)
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                    mine = pl.load(x, [0, 0], [1, WIDTH])
                    pld.tile.remote_store(mine, target=payload, peer=right, offsets=[0, 0])
                    pl.system.fence()
                    if MISSING == 0 or me != 0:
                        epoch: pl.Scalar[pl.INT32] = pl.read(x, [0, 0])
                        pld.system.notify(signal, peer=right, offsets=[0, 0], value=epoch, op=pld.NotifyOp.Set)
            return out

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(
            self,
            x: pl.Tensor[[pl.dynamic("NR"), 1, WIDTH], pl.INT32],
            out: pl.Out[pl.Tensor[[pl.dynamic("NR"), WAITERS, WIDTH], pl.INT32]],
        ) -> pl.Tensor[[pl.dynamic("NR"), WAITERS, WIDTH], pl.INT32]:
            payload_buf = pld.alloc_window_buffer(WIDTH * pl.INT32.get_byte())
            signal_buf = pld.alloc_window_buffer(pl.INT32.get_byte())
            for r in pl.range(pld.world_size()):
                payload = pld.window(payload_buf, [1, WIDTH], dtype=pl.INT32)
                signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
                self.chip(x[r], out[r], payload, signal, (r + 1) % pld.world_size(), r, device=r)
            return out

    return Deferred
