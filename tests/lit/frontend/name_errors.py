# RUN: ptodist check %s --verify-diagnostics
# Names: undefined names and unknown ops get suggestions; a rebinding in a nested block keeps the
# variable's type.
import pypto.language as pl
import pypto.language.distributed as pld
import numpy as np

N = 64


@pl.jit.incore
def kernel(x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
    count = 1
    # expected-error@+1 {{undefined name 'coutn'; did you mean 'count'?}}
    m = coutn + 1
    # expected-error@+1 {{unknown op 'pl.lod'; did you mean 'pl.load'?}}
    t = pl.lod(x, [0, 0], [1, N])
    t = pl.load(x, [0, 0], [1, N])
    for i in pl.range(2):
        # expected-error@+1 {{cannot rebind 't' (pl.Tile[[1, N], pl.FP32, pl.Mem.Vec]) to a value of type pl.Scalar[pl.INT64] outside the block that bound it (its value may flow around a loop or out of a branch); use a new name}}
        t = 5
    # expected-error@+1 {{unknown member 'UB' of pl.Mem; expected one of Vec, Mat, Left, Right, Acc}}
    u = pl.load(x, [0, 0], [1, N], target_memory=pl.Mem.UB)
    # expected-error@+1 {{unknown op 'pld.tensor.put_asnyc'; did you mean 'pld.tensor.put_async'?}}
    pld.tensor.put_asnyc(x, 0, x)
    # expected-error@+1 {{'np.zeros' is not part of the kernel language}}
    z = np.zeros(4)
    y = pl.store(t, [0, 0], y)
    return y

