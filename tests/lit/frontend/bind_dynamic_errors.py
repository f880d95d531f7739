# RUN: ptodist check %s --verify-diagnostics
# `param.bind_dynamic(dim, var)` as PyPTO reads it: a tensor parameter, an integer literal dim in
# range, a name bound to pl.dynamic(...). Anything else is reported where it is written.
import pypto.language as pl

N = 16
M = pl.dynamic("M")
NOT_DYNAMIC = 8


@pl.jit.incore
def kernel(x: pl.Tensor[[M, N], pl.FP32], y: pl.Out[pl.Tensor[[M, N], pl.FP32]], k: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{bind_dynamic: dim 2 is out of range for 'x' of type pl.Tensor[[M, N], pl.FP32]}}
    x.bind_dynamic(2, M)
    # expected-error@+1 {{bind_dynamic: 'NOT_DYNAMIC' is not bound to pl.dynamic(...)}}
    x.bind_dynamic(0, NOT_DYNAMIC)
    # expected-error@+1 {{bind_dynamic takes a dim as an integer literal and a name bound to pl.dynamic(...)}}
    x.bind_dynamic(k, M)
    # expected-error@+1 {{bind_dynamic is a method of the function's tensor parameters; 'k' is not one}}
    k.bind_dynamic(0, M)
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(t, [0, 0], y)
    return y
