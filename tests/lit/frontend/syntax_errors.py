# RUN: ptodist check %s --verify-diagnostics
# Syntax errors are located, and recovery reports every one of them in a single run.
import pypto.language as pl

N = 64


@pl.jit.incore
def kernel(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{expected ':' after 'for' header}}
    for i in pl.range(4)
        pass
    # expected-error@+1 {{expected an expression, found end of line}}
    a = n +
    # expected-error@+1 {{expected 'in' after the loop variable of 'for'}}
    for i pl.range(4):
        pass
    # expected-error@+1 {{expected ':' after the 'while' condition}}
    while n > 0
        pass
    # expected-error@+1 {{chained comparisons are not supported}}
    b = 0 < n < 4
    # expected-error@+1 {{expected ':' after 'if' condition}}
    if n > 0
        pass
    else:
        pass
    # expected-error@+1 {{expected ',' or ')' in the arguments of the call}}
    t = pl.load(x, [0, 0], [1, N] N)
    c = 1
        # expected-error@+1 {{unexpected indent}}
        d = 2
    # expected-error@+1 {{assignment to a subscript is not supported}}
    x[0] = 1
    # expected-error@+1 {{slice steps are not supported}}
    e = x[0:1:2]
    # expected-error@+1 {{comprehensions are not supported}}
    f = [i for i in pl.range(3)]
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(t, [0, 0], y)
    return y
