# RUN: ptodist check %s --verify-diagnostics
# Misuse of while loops, pl.while_ / pl.cond / pl.yield_ and continue/break is a located error.
import pypto.language as pl

N = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    t = pl.load(x, [0, 0], [1, N])
    # expected-error@+1 {{while condition must be a bool or integer scalar, got pl.Tile[[1, N], pl.FP32, pl.Mem.Vec]}}
    while t:
        n = n - 1
    # expected-error@+1 {{the body of a pl.while_ loop starts with pl.cond(condition)}}
    for (a,) in pl.while_(init_values=(0,)):
        a2 = a + 1
        # expected-error@+1 {{pl.cond(...) must be the first statement of a 'for (...) in pl.while_(init_values=(...)):' body}}
        pl.cond(a < 4)
        a_out = pl.yield_(a2)
    for (b,) in pl.while_(init_values=(0,)):
        pl.cond(b < 4)
        # expected-error@+1 {{pl.yield_ of 2 value(s) in a loop that carries 1}}
        b_out = pl.yield_(b + 1, b + 2)
    # expected-error@+1 {{the body of a pl.while_ loop ends with pl.yield_(...) of its 1 carried value(s)}}
    for (c,) in pl.while_(init_values=(0,)):
        pl.cond(c < 4)
        c = c + 1
    for (d,) in pl.while_(init_values=(0,)):
        # expected-error@+1 {{while condition must be a bool or integer scalar, got pl.Tile[[1, N], pl.FP32, pl.Mem.Vec]}}
        pl.cond(t)
        d_out = pl.yield_(d + 1)
    # expected-error@+1 {{pl.while_ takes only init_values=(...); its condition is the pl.cond(...) that opens the body}}
    for (e,) in pl.while_(n < 4, init_values=(0,)):
        pl.cond(e < 4)
        e_out = pl.yield_(e + 1)
    # expected-error@+1 {{pl.while_ requires init_values=(...)}}
    for (f,) in pl.while_():
        pl.cond(f < 4)
        f_out = pl.yield_(f + 1)
    # expected-error@+1 {{2 loop-carried name(s) but 1 init value(s)}}
    for (g, h) in pl.while_(init_values=(0,)):
        pl.cond(g < 4)
        g_out, h_out = pl.yield_(g, h)
    # expected-error@+1 {{a loop over a tuple of names iterates pl.while_(init_values=(...))}}
    for (p, q) in pl.range(4):
        pass
    # expected-error@+1 {{pl.cond(...) must be the first statement}}
    pl.cond(n > 0)
    # expected-error@+1 {{'continue' outside a loop}}
    continue
    # expected-error@+1 {{'break' outside a loop}}
    break
    y = pl.store(t, [0, 0], y)
