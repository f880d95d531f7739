# RUN: ptodist check %s --verify-diagnostics
# Calls of @pl.jit.inline functions that cannot be spliced, reported at the call or the offending line.
import pypto.language as pl

N = 16


@pl.jit.inline
def head(src: pl.Tensor[[1, N], pl.FP32], row: pl.Scalar[pl.INT32]):
    return pl.load(src, [row, 0], [1, N])


@pl.jit.inline
def early(src: pl.Tensor[[1, N], pl.FP32], row: pl.Scalar[pl.INT32]):
    if row > 0:
        # expected-error@+1 {{a 'return' before the end of inline function 'early' is not supported yet; return once, at the end of its body}}
        return pl.load(src, [0, 0], [1, N])
    return pl.load(src, [row, 0], [1, N])


@pl.jit.inline
def forever(n: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{inline function 'forever' calls itself; an inline body cannot be spliced into itself}}
    return forever(n)


# expected-error@+1 {{@pl.jit.opaque functions are not supported yet}}
@pl.jit.opaque
def opaque(x: pl.Tensor[[1, N], pl.FP32]):
    pass


@pl.jit.incore
def kernel(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], k: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{call of inline function 'head' is missing argument 'row'}}
    a = head(x)
    # expected-error@+1 {{inline function 'head' has no parameter 'col'}}
    b = head(x, col=0)
    # expected-error@+1 {{parameter 'src' of 'head' given twice}}
    c = head(x, src=x)
    d = early(x, k)
    e = forever(k)
    t = head(x, 0)
    y = pl.store(t, [0, 0], y)
    return y
