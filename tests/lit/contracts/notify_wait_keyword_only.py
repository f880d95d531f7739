# RUN: ptodist check %s --verify-diagnostics
# notify's `op` and wait's `cmp` are required and keyword-only, as in PyPTO
# (`notify(target, peer, offsets, value, *, op)`, `wait(signal, offsets, expected, *, cmp)`).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Signals:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, signal: pld.DistributedTensor[[1, 4], pl.INT32]):
        ctx = pld.get_comm_ctx(signal)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # expected-error@+1 {{pld.system.notify: missing required argument 'op'}}
        pld.system.notify(signal, peer, [0, 0], 1)
        # expected-error@+1 {{pld.system.notify: takes at most 4 positional arguments, got 5; pass 'op' and the parameters after it by keyword}}
        pld.system.notify(signal, peer, [0, 0], 1, pld.NotifyOp.AtomicAdd)
        # expected-error@+1 {{pld.system.wait: missing required argument 'cmp'}}
        pld.system.wait(signal, [0, 0], 1)
        # expected-error@+1 {{pld.system.wait: takes at most 3 positional arguments, got 4; pass 'cmp' and the parameters after it by keyword}}
        pld.system.wait(signal, [0, 0], 1, pld.WaitCmp.Eq)
