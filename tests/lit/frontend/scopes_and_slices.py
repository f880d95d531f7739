# RUN: ptodist check %s --verify-diagnostics
# `with` forms as PyPTO's parser reads them, loop-carried value errors and slice subscripts: what lowers
# passes, what does not yet is a located error at its line.
import pypto.language as pl
import pypto.language.distributed as pld

N = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[4, N], pl.FP32], y: pl.Out[pl.Tensor[[4, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    t = pl.load(x, [0, 0], [1, N])
    # expected-error@+1 {{slice steps are not supported; write start:stop}}
    a = x[0:2:1, 0:N]
    # expected-error@+1 {{a single index among slices drops a dim, which is not supported yet}}
    b = x[0, 0:N]
    # expected-error@+1 {{4 indices for a value of 2 dims}}
    c = x[0:1, 0:1, 0:1, 0:1]
    # expected-error@+1 {{the target of a slice assignment must be a name}}
    self.y[0:1, 0:N] = x
    # expected-error@+1 {{pl.yield_ belongs in the body of a loop with init_values=(...) or in an if/else branch}}
    d = pl.yield_(n)
    # expected-error@+1 {{loop-carried names need init_values=(...) on the loop builder}}
    for i, (acc,) in pl.range(4):
        pass
    # expected-error@+1 {{a loop with init_values= names its carried values}}
    for i in pl.range(4, init_values=(t,)):
        pass
    # expected-error@+1 {{2 loop-carried name(s) but 1 init value(s)}}
    for i, (p, q) in pl.range(4, init_values=(t,)):
        pass
    for i, (acc,) in pl.range(4, init_values=(t,)):
        # expected-error@+1 {{pl.yield_ of 2 value(s) in a loop that carries 1}}
        acc_out = pl.yield_(acc, acc)
    # expected-error@+1 {{unexpected argument 'init_values' of pl.unroll}}
    for i, (acc,) in pl.unroll(4, init_values=(t,)):
        pass
    y = pl.store(t, [0, 0], y)
    return y


@pl.jit
def chip(x: pl.Tensor[[4, N], pl.FP32], y: pl.Out[pl.Tensor[[4, N], pl.FP32]]):
    with pl.scope(mode=pl.ScopeMode.MANUAL):
        kernel(x, y, 1)
    with pl.scope():
        kernel(x, y, 2)
    # expected-error@+1 {{'with pl.at(level=pl.Level.CLUSTER_0)' is not supported yet}}
    with pl.at(level=pl.Level.CLUSTER_0, name_hint="w") as tid:
        inner = pl.load(x, [0, 0], [1, N])
    # Names the skipped body assigns are not reported again as undefined.
    kernel(x, y, inner)
    with pl.cluster(name_hint="group"):
        kernel(x, y, 4)
    # expected-error@+1 {{'with pl.manual_scope(...) as ...' binds nothing}}
    with pl.manual_scope() as m:
        kernel(x, y, 3)
    # expected-error@+1 {{unsupported 'with' statement; expected 'with pl.manual_scope():'}}
    with pl.scope(mode=pl.ScopeMode.SOMETIMES):
        pass
    # expected-error@+1 {{only one context manager per 'with' statement is supported}}
    with pl.manual_scope(), pl.scope():
        pass
