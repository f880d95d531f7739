# A tensor whose shape comes from run-time values is allocated only when its size fits: a negative
# dim, a size past 2^64 or past this machine's memory is a located error naming the shape and the
# bytes (before: a [2^40, 2^40] tensor wrapped to one byte and the write went past it; [2^17, 2^17]
# FP32 ended in "internal error: std::bad_alloc"). A small one still runs.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/ok.npy "np.full((2, 1, 4), 3, dtype=np.int64)"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/wrap.npy "np.full((2, 1, 4), 1 << 40, dtype=np.int64)"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/big.npy "np.full((2, 1, 4), 1 << 24, dtype=np.int64)"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/neg.npy "np.full((2, 1, 4), -3, dtype=np.int64)"
# RUN: ptodist run %s --ranks 2 --in x=%t/ok.npy --out-dir %t/out
# RUN: %numpy %S/../ops/Inputs/npy.py check %t/out y "np.array([[[3, 0, 0, 0]], [[3, 0, 0, 0]]])"
# RUN: not ptodist run %s --ranks 2 --in x=%t/wrap.npy 2>&1 | FileCheck %s --check-prefix=WRAP
# WRAP: dynamic_shape_bound.py:[[@LINE+13]]:9: error: pl.create_tensor: the tensor of shape [1099511627776, 1099511627776] (FP32) needs more than 2^64 bytes, more than the {{[0-9]+}} bytes of memory of this machine
# RUN: not ptodist run %s --ranks 2 --in x=%t/big.npy 2>&1 | FileCheck %s --check-prefix=BIG
# BIG: error: pl.create_tensor: the tensor of shape [16777216, 16777216] (FP32) needs 1125899906842624 bytes, more than the {{[0-9]+}} bytes of memory of this machine
# BIG-NOT: internal error
# RUN: not ptodist run %s --ranks 2 --in x=%t/neg.npy 2>&1 | FileCheck %s --check-prefix=NEG
# NEG: error: pl.create_tensor: the tensor of shape [-3, -3] (FP32) has a negative dim
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def grow(x: pl.Tensor[[1, 4], pl.INT64], y: pl.Out[pl.Tensor[[1, 4], pl.INT64]]):
    n = pl.read(x, [0, 0])
    t = pl.create_tensor([n, n], dtype=pl.FP32)
    pl.write(t, [0, 0], 1.5)
    pl.write(y, [0, 0], n)
    return y


@pl.jit
def chip(x: pl.Tensor[[1, 4], pl.INT64], y: pl.Out[pl.Tensor[[1, 4], pl.INT64]]):
    return grow(x, y)


@pl.jit.host
def host(x: pl.Tensor[[2, 1, 4], pl.INT64], y: pl.Out[pl.Tensor[[2, 1, 4], pl.INT64]]):
    for r in pl.range(pld.world_size()):
        chip(x[r], y[r], device=r)
