# The broadcast family on tiles (expand_ops.def): a [M, N] tile with a per-row [M, 1] vector
# (pl.row_expand_*, from pl.row_sum) or a per-column [1, N] vector (pl.col_expand_*). Golden values
# from numpy; the IR and PTO text of each form.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) % 7 + 1) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/g.npy "np.arange(2*8, dtype=np.float32).reshape(2, 1, 8) / 8 + 0.5"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in g=%t/g.npy --out-dir %t
# norm = x / rowsum(x) * g; shifted = exp(x - rowmax(x)) + max(x, g) - min(x, g)
# RUN: %numpy %S/Inputs/npy.py check %t norm "x / x.sum(axis=2, keepdims=True) * g"
# RUN: %numpy %S/Inputs/npy.py check %t shifted "np.exp(x - x.max(axis=2, keepdims=True)) + np.maximum(x, g) - np.minimum(x, g)"
# RUN: %numpy %S/Inputs/npy.py check %t spread "(x.sum(axis=2, keepdims=True) + 0 * x) - (g + 0 * x) + (x + g) - (x - x.max(axis=2, keepdims=True)) * 2 + np.exp(x - g) + np.maximum(x, x.max(axis=2, keepdims=True)) + np.minimum(x, x.sum(axis=2, keepdims=True)) + x / g"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in g=%t/g.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def expand_tiles(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    g: pl.Tensor[[1, COLS], pl.FP32],
    norm: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    shifted: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    spread: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    gv = pl.load(g, [0, 0], [1, COLS])
    tmp = pl.create_tile([ROWS, COLS], dtype=pl.FP32)
    sums = pl.row_sum(t, tmp)
    maxs = pl.row_max(t, tmp)
    # IR: q = pl.row_expand_div(t, sums)
    # PTO: pto.trowexpanddiv ins(
    q = pl.row_expand_div(t, sums)
    # IR: n = pl.tile.col_expand_mul(q, gv)
    # PTO: pto.tcolexpandmul ins(
    n = pl.tile.col_expand_mul(q, gv)
    norm = pl.store(n, [0, 0], norm)
    # PTO: pto.trowexpandexpdif ins(
    e = pl.row_expand_expdif(t, maxs)
    # PTO: pto.tcolexpandmax ins(
    hi = pl.col_expand_max(t, gv)
    # PTO: pto.tcolexpandmin ins(
    lo = pl.tile.col_expand_min(t, gv)
    shifted = pl.store(pl.sub(pl.add(e, hi), lo), [0, 0], shifted)
    # IR: a = pl.tile.row_expand(t, sums)
    # PTO: pto.trowexpand ins(
    a = pl.tile.row_expand(target=t, row_vec=sums)
    # PTO: pto.tcolexpand ins(
    b = pl.col_expand(t, gv)
    # PTO: pto.tcolexpandadd ins(
    c = pl.col_expand_add(t, gv)
    # PTO: pto.trowexpandsub ins(
    d = pl.row_expand_sub(t, maxs)
    # PTO: pto.tcolexpandexpdif ins(
    f = pl.tile.col_expand_expdif(t, gv)
    # PTO: pto.trowexpandmax ins(
    h = pl.row_expand_max(t, maxs)
    # PTO: pto.trowexpandmin ins(
    k = pl.row_expand_min(t, sums)
    # PTO: pto.tcolexpanddiv ins(
    m = pl.col_expand_div(t, gv)
    # PTO: pto.trowexpandmul ins(
    d2 = pl.row_expand_mul(d, pl.full([ROWS, 1], pl.FP32, 2.0))
    s = pl.add(pl.sub(a, b), c)
    s = pl.sub(s, d2)
    s = pl.add(pl.add(s, f), pl.add(h, k))
    s = pl.add(s, m)
    spread = pl.store(s, [0, 0], spread)
    return norm, shifted, spread


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    g: pl.Tensor[[1, COLS], pl.FP32],
    norm: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    shifted: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    spread: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    return expand_tiles(x, g, norm, shifted, spread)


@pl.jit.host
def expand_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    g: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
    norm: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    shifted: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    spread: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], g[r], norm[r], shifted[r], spread[r], device=r)
