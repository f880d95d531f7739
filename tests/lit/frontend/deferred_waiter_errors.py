# RUN: ptodist check %s --verify-diagnostics
# Where a deferred waiter (a kernel that calls pld.system.defer_wait) may come from, as PyPTO's audit
# in ExpandMixedKernel has it: only the body of a task-level `with pl.at(level=pl.Level.CORE_GROUP)`
# scope, and never with allow_early_resolve=True (its consumers would be pre-staged before the
# counter-backed task id completes). A declared InCore/AIV kernel that calls defer_wait, called plainly
# or submitted, bypasses the contract.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Waiters:
    @pl.function(type=pl.FunctionType.InCore)
    def declared_waiter(self, signal: pld.DistributedTensor[[1, 4], pl.INT32]):
        # expected-error@+1 {{pld.system.defer_wait in function 'declared_waiter' bypasses the deferred-waiter task contract: a waiter is the body of a task-level 'with pl.at(level=pl.Level.CORE_GROUP) as wait_tid:' scope in an orchestration function}}
        pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.AIV)
    def declared_aiv_waiter(self, signal: pld.DistributedTensor[[1, 4], pl.INT32], n: pl.Scalar[pl.INT32]):
        if n > 0:
            # expected-error@+1 {{pld.system.defer_wait in function 'declared_aiv_waiter' bypasses the deferred-waiter task contract}}
            pld.system.defer_wait(signal, offsets=[0, 1], expected=n, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pl.InOut[pld.DistributedTensor[[1, 4], pl.INT32]], n: pl.Scalar[pl.INT32]):
        self.declared_waiter(signal)
        with pl.manual_scope():
            _, tid = pl.spmd_submit(self.declared_waiter, signal, core_num=1)
            self.declared_aiv_waiter(signal, n)
            # expected-error@+1 {{deferred waiter 'early' cannot use allow_early_resolve=True: its task completes only once its pld.system.defer_wait conditions hold, and an early-resolved task would let the tasks that depend on it start before; drop the flag}}
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="early", allow_early_resolve=True) as wait_tid:
                pld.system.defer_wait(signal, offsets=[0, 2], expected=1, cmp=pld.WaitCmp.Ge)
            # The flag stays a scheduling hint on a scope that registers nothing, and False is the default.
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="plain", allow_early_resolve=True, deps=[wait_tid]):
                pld.system.wait(signal, offsets=[0, 3], expected=1, cmp=pld.WaitCmp.Ge)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter_ok", allow_early_resolve=False):
                pld.system.defer_wait(signal, offsets=[0, 3], expected=n, cmp=pld.WaitCmp.Ge)
