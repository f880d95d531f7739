# pl.reinterpret_view on tiles (PyPTO's tile.reinterpret_view): the same bytes as another dtype. FP32 as
# INT32 (same width), as INT16 (the last dim doubles) and as INT64 (it halves), an explicit shape of the
# same bytes, and a partially valid tile, whose valid columns scale with the last dim (the store writes
# only those). Goldens are numpy's .view of the same bytes: every bit is compared.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*8*16).reshape(2, 8, 16) + 0.25) * np.where(np.arange(16) % 2 == 0, 1, -1)).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t same "x.view(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t narrower "x.view(np.int16)"
# RUN: %numpy %S/Inputs/npy.py check %t wider "x.view(np.int64)"
# RUN: %numpy %S/Inputs/npy.py check %t reshaped "x.view(np.int16).reshape(2, 16, 16)"
# RUN: %numpy %S/Inputs/npy.py check %t part "np.concatenate([x.view(np.int16)[:, :, :12], np.zeros((2, 8, 20), np.int16)], 2)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto -o %t/pto
# RUN: FileCheck %s --check-prefix=PTO < %t/pto/views.pto
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
R = 8
C = 16


@pl.jit.incore
def views(
    x: pl.Tensor[[R, C], pl.FP32],
    same: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    narrower: pl.Out[pl.Tensor[[R, C * 2], pl.INT16]],
    wider: pl.Out[pl.Tensor[[R, C // 2], pl.INT64]],
    reshaped: pl.Out[pl.Tensor[[C, C], pl.INT16]],
    part: pl.Out[pl.Tensor[[R, C * 2], pl.INT16]],
):
    t = pl.load(x, [0, 0], [R, C])
    # IR: a = pl.reinterpret_view(t, pl.INT32)
    # PTO: [[V:%[a-z0-9_]+]] = pto.treshape %{{[a-z0-9_]+}} : !pto.tile_buf<{{.*}}dtype=f32, rows=8, cols=16{{.*}}> -> !pto.tile_buf<{{.*}}dtype=i32, rows=8, cols=16{{.*}}>
    # PTO-NEXT: pto.tmov ins([[V]] : {{.*}}) outs(%{{[a-z0-9_]+}} : !pto.tile_buf<{{.*}}dtype=i32
    a = pl.reinterpret_view(t, pl.INT32)
    same = pl.store(a, [0, 0], same)
    b = pl.tile.reinterpret_view(t, pl.INT16)
    narrower = pl.store(b, [0, 0], narrower)
    c = pl.reinterpret_view(t, pl.INT64)
    wider = pl.store(c, [0, 0], wider)
    d = pl.reinterpret_view(t, pl.INT16, shape=[C, C])
    reshaped = pl.store(d, [0, 0], reshaped)
    v = pl.load(x, [0, 0], [R, C], valid_shape=[R, 6])
    # IR: e = pl.reinterpret_view(v, pl.INT16)
    e = pl.reinterpret_view(v, pl.INT16)
    part = pl.store(e, [0, 0], part)
    return same, narrower, wider, reshaped, part


@pl.jit.host
def reinterpret(
    x: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    same: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.INT32]],
    narrower: pl.Out[pl.Tensor[[N_RANKS, R, C * 2], pl.INT16]],
    wider: pl.Out[pl.Tensor[[N_RANKS, R, C // 2], pl.INT64]],
    reshaped: pl.Out[pl.Tensor[[N_RANKS, C, C], pl.INT16]],
    part: pl.Out[pl.Tensor[[N_RANKS, R, C * 2], pl.INT16]],
):
    for r in pl.range(pld.world_size()):
        views(x[r], same[r], narrower[r], wider[r], reshaped[r], part[r], device=r)
