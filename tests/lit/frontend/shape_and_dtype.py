# RUN: ptodist check %s --verify-diagnostics
# RUN: ptodist compile %s --emit ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s | FileCheck %s
# `x.shape` and `x.dtype` of a tensor or tile, as PyPTO's @pl.jit reads them: the shape is a tuple of
# the dims (constants here), the dtype a dtype constant. Other attributes of a value are errors, and a
# bare `pl.Tensor` parameter (PyPTO's @pl.jit style) needs the tensor Python passes to learn its shape.
import pypto.language as pl

N = 16


@pl.jit.incore
def scale(x: pl.Tensor[[4, N], pl.FP16], y: pl.Out[pl.Tensor[[4, N], pl.FP16]]):
    # IR: t = pl.load(x, [0, 0], [4, N])
    # CHECK: t: pl.Tile{{.}}[4, 16], pl.FP16, pl.Mem.Vec, addr=0] = pl.load(x, [0, 0], [4, 16])
    t = pl.load(x, [0, 0], [x.shape[0], x.shape[1]])
    # CHECK: u: pl.Tile{{.}}[4, 16], pl.FP32, pl.Mem.Vec, addr=128] = pl.cast(t, pl.FP32)
    u = pl.cast(t, pl.FP32)
    # IR: v = pl.cast(u, pl.FP16)
    # CHECK: v: pl.Tile{{.}}[4, 16], pl.FP16, pl.Mem.Vec, addr=128] = pl.cast(u, pl.FP16)
    v = pl.cast(u, t.dtype)
    return pl.store(v, [0, 0], y)
