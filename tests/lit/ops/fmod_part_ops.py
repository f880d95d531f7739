# pl.fmod / pl.fmods (torch.fmod: the remainder takes the dividend's sign) on tiles, with a scalar
# (pl.fmod(tile, s) dispatches to pl.fmods, as PyPTO's unified op does) and on GM tensors; the partial
# combines pl.part_add/mul/max/min (PyPTO's tile.part_*): over lhs's valid region, op(lhs, rhs) where rhs
# is valid too and lhs where it is not. Goldens: numpy's fmod, and `np.where(rhs valid, op, lhs)`.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*8*16).reshape(2, 8, 16) % 23) - 11).astype(np.float32) * 0.75"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*8*16).reshape(2, 8, 16) % 7) - 3).astype(np.float32) + 0.5"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t f "np.fmod(a, b)"
# RUN: %numpy %S/Inputs/npy.py check %t fs "np.fmod(np.fmod(a, np.float32(1.5)), np.float32(-0.625))"
# RUN: %numpy %S/Inputs/npy.py check %t ft "np.fmod(b, a + np.float32(20))"
# Where rhs is valid: rows < 5 and cols < 12 (a 2-D mask broadcast over the ranks).
# RUN: %numpy %S/Inputs/npy.py check %t pa "np.where((np.arange(8)[:, None] < 5) & (np.arange(16) < 12), a + b, a)"
# RUN: %numpy %S/Inputs/npy.py check %t pm "np.where((np.arange(8)[:, None] < 5) & (np.arange(16) < 12), a * b, a)"
# RUN: %numpy %S/Inputs/npy.py check %t px "np.where(np.arange(8)[:, None] < 3, np.maximum(a, b), a)"
# RUN: %numpy %S/Inputs/npy.py check %t pn "np.where(np.arange(16) < 9, np.minimum(a, b), a)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto --program fmod_part_tiles | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
R, C = 8, 16


@pl.jit.incore
def tile_ops(
    a: pl.Tensor[[R, C], pl.FP32],
    b: pl.Tensor[[R, C], pl.FP32],
    f: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    fs: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    pa: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    pm: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    px: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    pn: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    ta = pl.load(a, [0, 0], [R, C])
    tb = pl.load(b, [0, 0], [R, C])
    # IR: r = pl.fmod(ta, tb)
    # PTO: pto.tfmod ins(
    r = pl.fmod(ta, tb)
    f = pl.store(r, [0, 0], f)
    # IR: s = pl.fmods(ta, 1.5)
    # PTO: pto.tfmods ins(
    s = pl.fmod(ta, 1.5)
    # IR: s = pl.tile.fmods(s, -0.625)
    s = pl.tile.fmods(s, -0.625)
    fs = pl.store(s, [0, 0], fs)
    nb = pl.load(b, [0, 0], [R, C], valid_shape=[5, 12])
    # IR: p = pl.tile.part_add(ta, nb)
    # PTO: pto.tpartadd ins(
    p = pl.tile.part_add(ta, nb)
    pa = pl.store(p, [0, 0], pa)
    # PTO: pto.tpartmul ins(
    p = pl.part_mul(ta, nb)
    pm = pl.store(p, [0, 0], pm)
    rows = pl.load(b, [0, 0], [R, C], valid_shape=[3, C])
    # PTO: pto.tpartmax ins(
    p = pl.tile.part_max(ta, rows)
    px = pl.store(p, [0, 0], px)
    cols = pl.load(b, [0, 0], [R, C], valid_shape=[R, 9])
    # PTO: pto.tpartmin ins(
    ta = pl.part_min(ta, cols)
    pn = pl.store(ta, [0, 0], pn)
    return f, fs, pa, pm, px, pn


@pl.jit.incore
def tensor_fmod(
    a: pl.Tensor[[R, C], pl.FP32],
    b: pl.Tensor[[R, C], pl.FP32],
    ft: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    # IR: ft = pl.assemble(ft, pl.tensor.fmod(b, pl.tensor.adds(a, 20.0)), [0, 0])
    ft = pl.assemble(ft, pl.tensor.fmod(b, pl.tensor.adds(a, 20.0)), [0, 0])
    return ft


@pl.jit
def per_rank(
    a: pl.Tensor[[R, C], pl.FP32],
    b: pl.Tensor[[R, C], pl.FP32],
    f: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    fs: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    ft: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    pa: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    pm: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    px: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    pn: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    tile_ops(a, b, f, fs, pa, pm, px, pn)
    tensor_fmod(a, b, ft)


@pl.jit.host
def fmod_part_tiles(
    a: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    b: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    f: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    fs: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    ft: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    pa: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    pm: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    px: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    pn: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(a[r], b[r], f[r], fs[r], ft[r], pa[r], pm[r], px[r], pn[r], device=r)
