# pl.sin / pl.cos (radians, FP32 only: PyPTO rejects other dtypes rather than promote) on a full tile, a
# narrowed valid region and a GM tensor, against numpy's float32 sin/cos. PyPTO's backend has no PTO
# instruction for them, so their PTO is a located error.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*8*32).reshape(2, 8, 32) % 97).astype(np.float32) * np.float32(0.131) - np.float32(6.3)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t sn "np.sin(x)"
# RUN: %numpy %S/Inputs/npy.py check %t cs "np.where((np.arange(8)[:, None] < 5) & (np.arange(32) < 30), np.cos(x), 0)"
# RUN: %numpy %S/Inputs/npy.py check %t st "np.cos(np.sin(x))"
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
R, C = 8, 32


@pl.jit.incore
def trig(
    x: pl.Tensor[[R, C], pl.FP32],
    sn: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    cs: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    tx = pl.load(x, [0, 0], [R, C])
    # IR: sn = pl.store(pl.sin(tx), [0, 0], sn)
    # PTO: sin_cos.py:[[@LINE+1]]:{{[0-9]+}}: error: pl.sin has no PTO form: PyPTO's backend emits no instruction for it
    sn = pl.store(pl.sin(tx), [0, 0], sn)
    nx = pl.load(x, [0, 0], [R, C], valid_shape=[5, 30])
    # IR: cs = pl.store(pl.tile.cos(nx), [0, 0], cs)
    cs = pl.store(pl.tile.cos(nx), [0, 0], cs)
    return sn, cs


@pl.jit.incore
def trig_tensor(x: pl.Tensor[[R, C], pl.FP32], st: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # IR: st = pl.assemble(st, pl.tensor.cos(pl.sin(x)), [0, 0])
    st = pl.assemble(st, pl.tensor.cos(pl.sin(x)), [0, 0])
    return st


@pl.jit
def per_rank(
    x: pl.Tensor[[R, C], pl.FP32],
    sn: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    cs: pl.Out[pl.Tensor[[R, C], pl.FP32]],
    st: pl.Out[pl.Tensor[[R, C], pl.FP32]],
):
    trig(x, sn, cs)
    trig_tensor(x, st)


@pl.jit.host
def sin_cos(
    x: pl.Tensor[[N_RANKS, R, C], pl.FP32],
    sn: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    cs: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
    st: pl.Out[pl.Tensor[[N_RANKS, R, C], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], sn[r], cs[r], st[r], device=r)
