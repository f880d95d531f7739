# pl.tile.transpose_view (a Mat tile read as its transpose: q @ k.T through one natural load of k, and a
# Vec view stored as x.T), pl.tri (lower and upper masks, a run-time diagonal, a valid region that a
# store alone writes) and pl.fillpad_expand (a partially valid tile padded into a larger one, max and
# zero pads; the tensor-level form). Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/q.npy "((np.arange(2*8*16).reshape(2, 8, 16) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/k.npy "((np.arange(2*32*16).reshape(2, 32, 16) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*8*16, dtype=np.float32).reshape(2, 8, 16) - 40"
# RUN: %numpy %S/Inputs/npy.py save %t/diag.npy "np.array([[-2], [3]], dtype=np.int32)"
# RUN: ptodist run %s --program view_mask_pad --ranks 2 --in q=%t/q.npy --in k=%t/k.npy --in x=%t/x.npy --in diag=%t/diag.npy --out-dir %t
# RUN: ptodist run %s --program pad_tensor --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t s "q.astype(np.float32) @ k.astype(np.float32).transpose(0, 2, 1)"
# RUN: %numpy %S/Inputs/npy.py check %t xt "x.transpose(0, 2, 1)"
# RUN: %numpy %S/Inputs/npy.py check %t lo "np.broadcast_to(np.tril(np.ones((8, 16)), 0), (2, 8, 16)).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t up "np.stack([np.pad(np.triu(np.ones((6, 12)), d), ((0, 2), (0, 4))) for d in (-2, 3)]).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t ex "np.stack([np.pad(x[r, :5, :12], ((0, 11), (0, 20)), constant_values=np.inf) for r in range(2)]).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t et "np.pad(x, ((0, 0), (0, 2), (0, 0))).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t m8 "np.broadcast_to(np.tril(np.ones((8, 32)), 1), (2, 8, 32)).astype(np.int8)"
# RUN: ptodist run %s --program view_mask_pad --ranks 2 --in q=%t/q.npy --in k=%t/k.npy --in x=%t/x.npy --in diag=%t/diag.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# The view shares its source's buffer (plan-memory joins them, as PyPTO's result inherits the source's
# MemRef).
# RUN: ptodist compile %s --emit=tile-ir | FileCheck %s --check-prefix=PLAN
# PLAN: kn: pl.Tile{{\[\[}}32, 16], pl.FP16, pl.Mem.Mat, addr=[[K:[0-9]+]]{{]}} = pl.load(
# PLAN: kt: pl.Tile{{\[\[}}16, 32], pl.FP16, pl.Mem.Mat, addr=[[K]]{{]}} = pl.tile.transpose_view(kn)
# PTO as PyPTO's backend writes it: the view is an alloc_tile of the transposed (ZN; DN in Vec) layout
# at its source's address and no op; pto.ttri with the diagonal as an i32; pto.tfillpad_expand with the
# pad in the result's type (pad=2: max).
# RUN: ptodist compile %s --emit=pto --program view_mask_pad | FileCheck %s --check-prefix=PTO
# PTO: %kn = pto.alloc_tile addr = [[KA:%c[0-9]+_i64]] : !pto.tile_buf<loc=mat, dtype=f16, rows=32, cols=16, v_row=32, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>
# PTO-NEXT: %kt = pto.alloc_tile addr = [[KA]] : !pto.tile_buf<loc=mat, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=col_major, fractal=512, pad=0>
# PTO: pto.tload ins(%k_pview {{.*}} outs(%kn :
# PTO-NEXT: pto.tmov ins(%qm :
# PTO-NEXT: pto.tmov ins(%kt : {{.*}}) outs(%tile_1 : !pto.tile_buf<loc=right,
# PTO: %t = pto.alloc_tile addr = [[TA:%c[0-9]+_i64]] : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16,
# PTO-NEXT: %v = pto.alloc_tile addr = [[TA]] : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=8, v_row=16, v_col=8, blayout=col_major, slayout=none_box, fractal=512, pad=0>
# PTO: %e = pto.alloc_tile addr = {{%c[0-9]+_i64}} : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=2>
# PTO: pto.tload ins(%x_pview : {{.*}}) outs(%t :
# PTO-NEXT: %xt_pview = pto.partition_view
# PTO-NEXT: pto.tstore ins(%v :
# PTO-NEXT: "pto.ttri"(%c0_i32, %l) {upperOrLower = 0 : i32} : (i32, !pto.tile_buf<loc=vec, dtype=i32,
# PTO: %diag_val = pto.load_scalar
# PTO-NEXT: "pto.ttri"(%diag_val, %u) {upperOrLower = 1 : i32} : (i32, !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=?, v_col=?,
# PTO: pto.tfillpad_expand ins(%part : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}pad=0>) outs(%e : !pto.tile_buf<{{.*}}rows=16, cols=32{{.*}}pad=2>)
# The tensor-level form has no PTO lowering yet, nor has an 8-bit or BF16 mask on a2a3 (PyPTO's neither).
# RUN: not ptodist compile %s --emit=pto --program pad_tensor 2>&1 | FileCheck %s --check-prefix=NOPTO
# NOPTO: error: pl.fillpad_expand: the tensor-level form (GM tensors in, a new tensor out) has no PTO lowering yet
# NOPTO: error: pl.tri: dtype INT8 has no pto.ttri form on a2a3 (INT16, INT32, UINT16, UINT32, FP16 and FP32 have)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M, K, N = 8, 16, 32
R, C = 8, 16
DIAG = 2
WHOLE = None  # a name bound to None is an omitted argument (PyPTO's factories pass valid_shape=None)
UPPER = True  # a flag bound to a constant is that literal


@pl.jit.incore
def qk(
    q: pl.Tensor[[M, K], pl.FP16],
    k: pl.Tensor[[N, K], pl.FP16],
    s: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    qm = pl.load(q, [0, 0], [M, K], target_memory=pl.Mem.Mat)
    kn = pl.load(k, [0, 0], [N, K], target_memory=pl.Mem.Mat)
    # IR: kt = pl.tile.transpose_view(kn)
    kt = pl.tile.transpose_view(kn)
    acc = pl.matmul(pl.move(qm, target_memory=pl.Mem.Left), pl.move(kt, target_memory=pl.Mem.Right))
    s = pl.store(acc, [0, 0], s)
    return s


@pl.jit.incore
def masks(
    x: pl.Tensor[[R, C], pl.FP32],
    diag: pl.Tensor[[1], pl.INT32],
    xt: pl.Out[pl.Tensor[[C, R], pl.FP32]],
    lo: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    up: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ex: pl.Out[pl.Tensor[[R + 8, C + 16], pl.FP32]],
):
    t = pl.load(x, [0, 0], [R, C])
    v = pl.tile.transpose_view(t)
    xt = pl.store(v, [0, 0], xt)
    # A diagonal that folds through the module constants is an INT32 literal, as PyPTO's int is.
    # IR: l = pl.tri(0, [R, C], valid_shape=None)
    l = pl.tri(DIAG - 2, [R, C], valid_shape=WHOLE)
    lo = pl.store(l, [0, 0], lo)
    d: pl.Scalar[pl.INT32] = pl.tensor.read(diag, [0])
    # IR: u = pl.tile.tri(d, [R, C], valid_shape=[6, 12], dtype=pl.FP32, upper=True)
    u = pl.tile.tri(d, [R, C], valid_shape=[6, 12], dtype=pl.FP32, upper=UPPER)
    up = pl.store(u, [0, 0], up)
    part = pl.load(x, [0, 0], [R, C], valid_shape=[5, 12])
    # IR: e = pl.tile.fillpad_expand(part, [R + 8, C + 16], pad_value=pl.PadValue.max)
    e = pl.tile.fillpad_expand(part, [R + 8, C + 16], pad_value=pl.PadValue.max)
    ex = pl.store(e, [0, 0], ex)
    return xt, lo, up, ex


@pl.jit.incore
def tensor_pad(
    x: pl.Tensor[[R, C], pl.FP32],
    et: pl.Out[pl.Tensor[[R + 2, C], pl.FP32]],
):
    p = pl.fillpad_expand(x, [R + 2, C])
    et = pl.assemble(et, p, [0, 0])
    return et


@pl.jit.incore
def byte_mask(m8: pl.Out[pl.Tensor[[R, C + 16], pl.INT8]]):
    b = pl.tri(1, [R, C + 16], dtype=pl.INT8)
    m8 = pl.store(b, [0, 0], m8)
    return m8


@pl.jit
def per_rank(
    q: pl.Tensor[[M, K], pl.FP16],
    k: pl.Tensor[[N, K], pl.FP16],
    x: pl.Tensor[[R, C], pl.FP32],
    diag: pl.Tensor[[1], pl.INT32],
    s: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    xt: pl.Out[pl.Tensor[[C, R], pl.FP32]],
    lo: pl.Out[pl.Tensor[[R, C], pl.INT32]],
    up: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ex: pl.Out[pl.Tensor[[R + 8, C + 16], pl.FP32]],
):
    qk(q, k, s)
    masks(x, diag, xt, lo, up, ex)


@pl.jit.host
def view_mask_pad(
    q: pl.Tensor[[N_RANKS, M, K], pl.FP16],
    k: pl.Tensor[[N_RANKS, N, K], pl.FP16],
    x: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    diag: pl.Tensor[[N_RANKS, 1], pl.INT32],
    s: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    xt: pl.Out[pl.Tensor[[N_RANKS, C, R], pl.FP32]],
    lo: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.INT32]],
    up: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    ex: pl.Out[pl.Tensor[[N_RANKS, R + 8, C + 16], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(q[r], k[r], x[r], diag[r], s[r], xt[r], lo[r], up[r], ex[r], device=r)


@pl.jit
def rank_pad(
    x: pl.Tensor[[R, C], pl.FP32],
    et: pl.Out[pl.Tensor[[R + 2, C], pl.FP32]],
    m8: pl.Out[pl.Tensor[[R, C + 16], pl.INT8]],
):
    tensor_pad(x, et)
    byte_mask(m8)


# What has no PTO lowering: a program of its own.
@pl.jit.host
def pad_tensor(
    x: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    et: pl.Out[pl.Tensor[[N_RANKS, R + 2, C], pl.FP32]],
    m8: pl.Out[pl.Tensor[[N_RANKS, R, C + 16], pl.INT8]],
):
    for r in pl.range(pld.world_size()):
        rank_pad(x[r], et[r], m8[r], device=r)
