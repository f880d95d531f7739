# RUN: ptodist check --verify-diagnostics %s
# Definite assignment: a name assigned in one branch, or in a loop that may run zero times, is not
# defined after it (unless a variable of its type exists before the loop, PyPTO's zero-trip value:
# frontend/escaping_loop_values.py); a loop with constant bounds that runs keeps its names (and its
# variable).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Scoping:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 64], pl.FP32]],
        signal: pld.DistributedTensor[[1, 8], pl.INT32],
    ):
        ctx = pld.get_comm_ctx(signal)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        if me == 0:
            t = pl.load(x, [0, 0], [1, 64])
        # expected-error@+1 {{'t' may be used before it is assigned}}
        y = pl.store(t, [0, 0], y)
        for i in pl.range(n):
            u = pl.load(x, [1, 0], [2, 64])
        y = pl.store(u, [1, 0], y)  # expected-error {{'u' may be used before it is assigned}}
        for j in pl.range(4):
            w = pl.load(x, [j, 0], [1, 64])
        y = pl.store(w, [j, 0], y)
        if me == 1:
            v = pl.load(x, [2, 0], [1, 64])
        else:
            return y
        y = pl.store(v, [2, 0], y)
        return y
