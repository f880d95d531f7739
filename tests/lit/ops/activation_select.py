# pl.tile.lrelu (x > 0 ? x : slope * x), pl.tile.prelu (the same with a slope tile), pl.tile.sels (src
# where pl.cmps's packed bit is set, else the scalar; an unsigned src takes the scalar's bits),
# pl.not_ (INT16 / UINT16) and pl.tile.div(..., high_precision=True), over
# full tiles and narrowed valid regions (a store writes the valid region; the rest of an output stays 0).
# Goldens from numpy: FP32 and FP16 products in fp32 rounded once, as torch computes them.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*16*32).reshape(2, 16, 32) % 23) - 11).astype(np.float32) * 0.37"
# RUN: %numpy %S/Inputs/npy.py save %t/k.npy "np.array([-1.0, 0.0, 0.25, 1.5], np.float32)[np.arange(2*16*32).reshape(2, 16, 32) % 4]"
# RUN: %numpy %S/Inputs/npy.py save %t/h.npy "(((np.arange(2*16*32).reshape(2, 16, 32) % 19) - 9) * 0.3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/n.npy "(np.arange(2*16*32).reshape(2, 16, 32) * 37 - 9000).astype(np.int16)"
# RUN: %numpy %S/Inputs/npy.py save %t/u.npy "(np.arange(2*16*32).reshape(2, 16, 32) * 61 % 30011).astype(np.int16)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in k=%t/k.npy --in h=%t/h.npy --in n=%t/n.npy --in u=%t/u.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t lr "np.where(x > 0, x, np.float32(0.1) * x)"
# RUN: %numpy %S/Inputs/npy.py check %t lrh "np.where(h > 0, h, (np.float32(-0.5) * h.astype(np.float32)).astype(np.float16))"
# RUN: %numpy %S/Inputs/npy.py check %t pr "np.where((np.arange(16)[:, None] < 9) & (np.arange(32) < 21), np.where(x > 0, x, x * k), 0)"
# RUN: %numpy %S/Inputs/npy.py check %t sl "np.where(x > 0, x, np.float32(-3))"
# RUN: %numpy %S/Inputs/npy.py check %t slu "np.where((u % 3) == 0, u.astype(np.uint16), np.uint16(65533))"
# RUN: %numpy %S/Inputs/npy.py check %t slh "np.where((u % 3) == 0, np.uint16(32775), u.astype(np.uint16))"
# RUN: %numpy %S/Inputs/npy.py check %t nt "~n"
# RUN: %numpy %S/Inputs/npy.py check %t ntu "~u.astype(np.uint16)"
# RUN: %numpy %S/Inputs/npy.py check %t dv "x / (k + np.float32(2))"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in k=%t/k.npy --in h=%t/h.npy --in n=%t/n.npy --in u=%t/u.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto --program activation_select | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
R, C = 16, 32


@pl.jit.incore
def float_ops(
    x: pl.Tensor[[R, C], pl.FP32],
    k: pl.Tensor[[R, C], pl.FP32],
    h: pl.Tensor[[R, C], pl.FP16],
    lr: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    lrh: pl.Out[pl.Tensor[[R, C], pl.FP16]],
    pr: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    sl: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    dv: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    tx = pl.load(x, [0, 0], [R, C])
    # IR: a = pl.tile.lrelu(tx, 0.1)
    # PTO: pto.tlrelu ins(%{{.*}}, %{{.*}} : !pto.tile_buf<{{.*}}f32{{.*}}>, f32) outs(
    a = pl.tile.lrelu(tx, 0.1)
    lr = pl.store(a, [0, 0], lr)
    th = pl.load(h, [0, 0], [R, C])
    # PTO: pto.tlrelu ins(%{{.*}}, %{{.*}} : !pto.tile_buf<{{.*}}f16{{.*}}>, f32) outs(
    lrh = pl.store(pl.tile.lrelu(th, -0.5), [0, 0], lrh)
    nx = pl.load(x, [0, 0], [R, C], valid_shape=[9, 21])
    nk = pl.load(k, [0, 0], [R, C], valid_shape=[9, 21])
    scratch = pl.tile.create([10, 32], dtype=pl.UINT8)
    # IR: p = pl.tile.prelu(nx, nk, scratch)
    # PTO: pto.tprelu ins(%{{.*}}, %{{.*}}, %{{.*}} : !pto.tile_buf<{{.*}}f32{{.*}}>, !pto.tile_buf<{{.*}}f32{{.*}}>, !pto.tile_buf<{{.*}}ui8{{.*}}>) outs(
    p = pl.tile.prelu(nx, nk, scratch)
    pr = pl.store(p, [0, 0], pr)
    mask = pl.tile.cmps(tx, 0.0, cmp_type=4)
    tmp = pl.tile.create([1, 32], dtype=pl.FP32)
    # IR: s = pl.tile.sels(mask, tx, tmp, -3)
    # PTO: pto.tsels ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !pto.tile_buf<{{.*}}ui8{{.*}}>, !pto.tile_buf<{{.*}}f32{{.*}}>, !pto.tile_buf<{{.*}}f32{{.*}}>, f32) outs(
    s = pl.tile.sels(mask, tx, tmp, -3)
    sl = pl.store(s, [0, 0], sl)
    tk = pl.load(k, [0, 0], [R, C])
    # IR: q = pl.tile.div(tx, pl.tile.adds(tk, 2.0), high_precision=True)
    # PTO: pto.tdiv ins({{.*}}) outs({{.*}}) {precisionType = #pto<div_precision high_precision>}
    q = pl.tile.div(tx, pl.tile.adds(tk, 2.0), high_precision=True)
    dv = pl.store(q, [0, 0], dv)
    return lr, lrh, pr, sl, dv


@pl.jit.incore
def unary_ops(
    x: pl.Tensor[[R, C], pl.FP32],
    n: pl.Tensor[[R, C], pl.INT16],
    u: pl.Tensor[[R, C], pl.INT16],
    slu: pl.Out[pl.Tensor[[R, C], pl.UINT16]],
    slh: pl.Out[pl.Tensor[[R, C], pl.UINT16]],
    nt: pl.Out[pl.Tensor[[R, C], pl.INT16]],
    ntu: pl.Out[pl.Tensor[[R, C], pl.UINT16]],
):
    # UINT16 from a non-negative INT16 input (a .npy of uint16 reads as BF16).
    tu = pl.cast(pl.load(u, [0, 0], [R, C]), pl.UINT16)
    mask = pl.tile.cmps(pl.cast(pl.tile.fmods(pl.cast(tu, pl.FP32), 3.0), pl.INT32), 0, cmp_type=0)
    tmp = pl.tile.create([1, 16], dtype=pl.UINT16)
    # PTO: pto.tsels ins({{.*}} : {{.*}}, i16) outs(
    slu = pl.store(pl.tile.sels(mask, tu, tmp, -3), [0, 0], slu)
    # The high bit set: 0x8007 is PyPTO's INT16 -32761, the same bits.
    slh = pl.store(pl.tile.sels(pl.tile.cmps(pl.cast(pl.tile.fmods(pl.cast(tu, pl.FP32), 3.0), pl.INT32), 0, cmp_type=1), tu, tmp, 0x8007), [0, 0], slh)
    # PTO: pto.tnot ins(%{{.*}} : !pto.tile_buf<{{.*}}i16{{.*}}>) outs(
    nt = pl.store(pl.tile.not_(pl.load(n, [0, 0], [R, C])), [0, 0], nt)
    ntu = pl.store(pl.not_(tu), [0, 0], ntu)
    return slu, slh, nt, ntu


@pl.jit
def per_rank(
    x: pl.Tensor[[R, C], pl.FP32],
    k: pl.Tensor[[R, C], pl.FP32],
    h: pl.Tensor[[R, C], pl.FP16],
    n: pl.Tensor[[R, C], pl.INT16],
    u: pl.Tensor[[R, C], pl.INT16],
    lr: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    lrh: pl.Out[pl.Tensor[[R, C], pl.FP16]],
    pr: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    sl: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    dv: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    slu: pl.Out[pl.Tensor[[R, C], pl.UINT16]],
    slh: pl.Out[pl.Tensor[[R, C], pl.UINT16]],
    nt: pl.Out[pl.Tensor[[R, C], pl.INT16]],
    ntu: pl.Out[pl.Tensor[[R, C], pl.UINT16]],
):
    float_ops(x, k, h, lr, lrh, pr, sl, dv)
    unary_ops(x, n, u, slu, slh, nt, ntu)


@pl.jit.host
def activation_select(
    x: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    k: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    h: pl.Tensor[[N_RANKS, R, C], pl.FP16],
    n: pl.Tensor[[N_RANKS, R, C], pl.INT16],
    u: pl.Tensor[[N_RANKS, R, C], pl.INT16],
    lr: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    lrh: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP16]],
    pr: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    sl: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    dv: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    slu: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.UINT16]],
    slh: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.UINT16]],
    nt: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.INT16]],
    ntu: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.UINT16]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], k[r], h[r], n[r], u[r], lr[r], lrh[r], pr[r], sl[r], dv[r], slu[r], slh[r], nt[r], ntu[r], device=r)
