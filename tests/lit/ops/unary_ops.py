# The unary family on tiles (unary_ops.def): pl.neg/abs/sqrt/rsqrt/recip/log/relu and their pl.tile.
# spellings, float and integer. Golden values from numpy; the IR and PTO text of each form.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) + 1) / 8"
# RUN: %numpy %S/Inputs/npy.py save %t/n.npy "np.arange(2*4*8, dtype=np.int32).reshape(2, 4, 8) - 30"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in n=%t/n.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t roots "np.sqrt(x) + 1 / np.sqrt(x)"
# RUN: %numpy %S/Inputs/npy.py check %t logs "1 / x - np.log(x)"
# RUN: %numpy %S/Inputs/npy.py check %t signs "np.maximum(-x, 0) + np.abs(-x)"
# RUN: %numpy %S/Inputs/npy.py check %t ints "np.maximum(-n, 0) * 100 + np.abs(n)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in n=%t/n.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def unary_tiles(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    n: pl.Tensor[[ROWS, COLS], pl.INT32],
    roots: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    logs: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    signs: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ints: pl.Out[pl.Tensor[[ROWS, COLS], pl.INT32]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    # IR: s = pl.sqrt(t)
    # PTO: pto.tsqrt ins(
    s = pl.sqrt(t)
    # IR: r = pl.tile.rsqrt(t)
    # PTO: pto.trsqrt ins(
    r = pl.tile.rsqrt(t)
    roots = pl.store(pl.add(s, r), [0, 0], roots)
    # IR: p = pl.recip(t, high_precision=True)
    # PTO: pto.trecip ins({{.*}}) outs({{.*}}) {precisionType = #pto<recip_precision high_precision>}
    p = pl.recip(t, high_precision=True)
    # IR: l = pl.tile.log(t)
    # PTO: pto.tlog ins(
    l = pl.tile.log(t)
    logs = pl.store(pl.sub(p, l), [0, 0], logs)
    # IR: m = pl.neg(t)
    # PTO: pto.tneg ins(
    m = pl.neg(t)
    # IR: z = pl.relu(m)
    # PTO: pto.trelu ins(
    z = pl.relu(m)
    # IR: a = pl.tile.abs(m)
    # PTO: pto.tabs ins(
    a = pl.tile.abs(m)
    signs = pl.store(pl.add(z, a), [0, 0], signs)
    k = pl.load(n, [0, 0], [ROWS, COLS])
    kz = pl.tile.relu(pl.tile.neg(k))
    ka = pl.abs(k)
    ints = pl.store(pl.add(pl.muls(kz, 100), ka), [0, 0], ints)
    return roots, logs, signs, ints


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    n: pl.Tensor[[ROWS, COLS], pl.INT32],
    roots: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    logs: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    signs: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ints: pl.Out[pl.Tensor[[ROWS, COLS], pl.INT32]],
):
    return unary_tiles(x, n, roots, logs, signs, ints)


@pl.jit.host
def unary_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    n: pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32],
    roots: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    logs: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    signs: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    ints: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], n[r], roots[r], logs[r], signs[r], ints[r], device=r)
