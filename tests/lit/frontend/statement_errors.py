# RUN: ptodist check %s --verify-diagnostics
# Every Python statement the kernel language has no lowering for is a located error at its line: none
# is skipped. (The statements that lower are walked by statement_forms.py.)
import pypto.language as pl

N = 16


@pl.jit.incore
def kernel(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{'raise' statements are not supported in kernel functions}}
    raise ValueError("no")
    # expected-error@+1 {{'assert' statements are not supported in kernel functions}}
    assert n > 0
    # expected-error@+1 {{'del' statements are not supported in kernel functions}}
    del n
    # expected-error@+1 {{'global' statements are not supported in kernel functions}}
    global N
    # expected-error@+1 {{'nonlocal' statements are not supported in kernel functions}}
    nonlocal n
    # expected-error@+1 {{'import' statements are not supported in kernel functions}}
    import math
    # expected-error@+1 {{'from' statements are not supported in kernel functions}}
    from math import sqrt
    # expected-error@+1 {{'yield' statements are not supported in kernel functions}}
    yield n
    # expected-error@+1 {{'try' statements are not supported in kernel functions}}
    try:
        pass
    except ValueError:
        pass
    finally:
        pass
    # expected-error@+1 {{'async' statements are not supported in kernel functions}}
    async for i in pl.range(4):
        pass
    # expected-error@+1 {{'await' statements are not supported in kernel functions}}
    await n
    # expected-error@+1 {{'lambda' statements are not supported in kernel functions}}
    lambda: 0
    # expected-error@+1 {{'def' statements are not supported in kernel functions}}
    def helper():
        pass
    # expected-error@+1 {{'class' statements are not supported in kernel functions}}
    class Local:
        pass
    # expected-error@+3 {{'def' statements are not supported in kernel functions}}
    # expected-error@+1 {{decorators and nested functions are not supported inside a kernel function}}
    @staticmethod
    def decorated():
        pass
    # expected-error@+1 {{unsupported 'with' statement}}
    with open("f"):
        pass
    # expected-error@+1 {{chained assignment 'a = b = value' is not supported}}
    a = b = n
    # expected-error@+1 {{assignment to an attribute is not supported}}
    x.shape = n
    # expected-error@+1 {{call of unknown function 'print'}}
    print(n)
    # expected-error@+1 {{cannot assign to this expression}}
    n + 1 = 2
    # expected-error@+1 {{'else' without a matching 'if'}}
    else:
        pass
    # expected-error@+1 {{expected pl.range(...), pl.parallel(...), pl.unroll(...) or pl.pipeline(...) as the loop iterable}}
    for _ in [1, 2]:
        pass
    # expected-error@+1 {{loops over several variables are not supported}}
    for i, j in pl.range(4):
        pass
    # expected-error@+1 {{pl.pipeline() requires stage= (a positive integer)}}
    for i in pl.pipeline(4):
        pass
    # expected-error@+1 {{pl.pipeline() stage must be >= 1, got 0}}
    for i in pl.pipeline(0, 4, stage=0):
        pass
    # expected-error@+1 {{pl.pipeline() stage must be a compile-time constant integer, got pl.Scalar[pl.FP32]}}
    for i in pl.pipeline(4, stage=1.5):
        pass
    # expected-error@+1 {{unexpected argument 'stage' of pl.range}}
    for i in pl.range(4, stage=2):
        pass
    t = pl.load(x, [0, 0], [1, N])
    y = pl.store(t, [0, 0], y)
    return y
