# RUN: ptodist check %s --verify-diagnostics
# The deferred-waiter contract (PyPTO's DeferredWaitContractValidator), checked by the async-event
# dataflow: a kernel that calls pld.system.defer_wait (the body of a pl.at(level=pl.Level.CORE_GROUP)
# scope) only computes scalars and registers conditions, reads (pl.read) only before its first
# registration on any path, returns no value, and registers at most 64 conditions on a path.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Waiters:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        signal: pl.InOut[pld.DistributedTensor[[1, 4], pl.INT32]],
        data: pl.InOut[pld.DistributedTensor[[1, 64], pl.INT32]],
        inp: pl.Tensor[[1, 8], pl.INT32],
        n: pl.Scalar[pl.INT32],
    ):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="load_in_waiter"):
            # expected-note@+1 {{a deferred condition is registered here}}
            pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
            # expected-error@+1 {{deferred waiter 'load_in_waiter' is registration-only: pl.load cannot run in a kernel that calls pld.system.defer_wait, which is never resumed; put it in a task that depends on the waiter (deps=[wait_tid])}}
            t = pl.load(data, [0, 0], [1, 64])

        with pl.at(level=pl.Level.CORE_GROUP, name_hint="read_after_registration"):
            epoch: pl.Scalar[pl.INT32] = pl.read(inp, [0, 0])
            if n > 0:
                # expected-note@+1 {{a deferred condition is registered here}}
                pld.system.defer_wait(signal, offsets=[0, 0], expected=epoch, cmp=pld.WaitCmp.Ge)
            # expected-error@+1 {{pl.read after a pld.system.defer_wait registration}}
            later: pl.Scalar[pl.INT32] = pl.read(inp, [0, 1])
            pld.system.defer_wait(signal, offsets=[0, 1], expected=later, cmp=pld.WaitCmp.Ge)

        with pl.at(level=pl.Level.CORE_GROUP, name_hint="notify_in_waiter"):
            # expected-error@+1 {{deferred waiter 'notify_in_waiter' is registration-only: pld.system.notify}}
            pld.system.notify(signal, peer=0, offsets=[0, 1], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

        with pl.at(level=pl.Level.CORE_GROUP, name_hint="unknown_trip"):
            # expected-error@+1 {{pld.system.defer_wait: a loop that registers deferred conditions needs a constant trip count}}
            for i in pl.range(n):
                pld.system.defer_wait(signal, offsets=[0, 0], expected=i, cmp=pld.WaitCmp.Ge)

        # expected-error@+1 {{deferred waiter 'over_budget' may register more than 64 conditions}}
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="over_budget"):
            for i in pl.range(65):
                pld.system.defer_wait(signal, offsets=[0, 0], expected=i, cmp=pld.WaitCmp.Ge)

        # The trip count of extreme constant bounds does not fit 64 bits (stop - start): still over budget.
        # expected-error@+1 {{deferred waiter 'extreme_bounds' may register more than 64 conditions}}
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="extreme_bounds"):
            for i in pl.range(-9223372036854775807, 9223372036854775807):
                pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

        with pl.at(level=pl.Level.CORE_GROUP, name_hint="bookkeeping_is_fine"):
            base: pl.Scalar[pl.INT32] = pl.read(inp, [0, 0])
            ctx = pld.get_comm_ctx(signal)
            me = pld.rank(ctx)
            for i in pl.range(4):
                if i != me:
                    pld.system.defer_wait(signal, offsets=[0, i], expected=base + i, cmp=pld.WaitCmp.Ge)
