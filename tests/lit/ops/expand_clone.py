# pl.expand_clone(src, target): a rank-3 GM tensor broadcast along its one dim of 1 over the whole of
# `target`, which it returns (so a kernel may return it for its pl.Out parameter, as PyPTO's st kernels
# do); with no dim of 1 it is a copy. Goldens from numpy's broadcast_to. It has no PTO lowering yet.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "np.arange(2*1*4*8, dtype=np.float32).reshape(2, 1, 4, 8) * 0.5 - 3"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "np.arange(2*2*4*1, dtype=np.float32).reshape(2, 2, 4, 1) - 1.25"
# RUN: %numpy %S/Inputs/npy.py save %t/c.npy "np.arange(2*2*4*8, dtype=np.float32).reshape(2, 2, 4, 8) * 0.25"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in c=%t/c.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t ya "np.broadcast_to(a, (2, 2, 4, 8))"
# RUN: %numpy %S/Inputs/npy.py check %t yb "np.broadcast_to(b, (2, 2, 4, 8))"
# RUN: %numpy %S/Inputs/npy.py check %t yc "c"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in c=%t/c.npy --mode check
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
B, N, K = 2, 4, 8


@pl.jit.incore
def clone_batch(a: pl.Tensor[[1, N, K], pl.FP32], ya: pl.Out[pl.Tensor[[B, N, K], pl.FP32]]):
    # PTO: error: pl.expand_clone: has no PTO lowering in a kernel yet
    out = pl.expand_clone(a, ya)
    return out


@pl.jit.incore
def clone_cols(
    b: pl.Tensor[[B, N, 1], pl.FP32],
    c: pl.Tensor[[B, N, K], pl.FP32],
    yb: pl.Out[pl.Tensor[[B, N, K], pl.FP32]],
    yc: pl.Out[pl.Tensor[[B, N, K], pl.FP32]],
):
    yb = pl.tensor.expand_clone(b, yb)
    yc = pl.expand_clone(c, yc)
    return yb, yc


@pl.jit
def per_rank(
    a: pl.Tensor[[1, N, K], pl.FP32],
    b: pl.Tensor[[B, N, 1], pl.FP32],
    c: pl.Tensor[[B, N, K], pl.FP32],
    ya: pl.Out[pl.Tensor[[B, N, K], pl.FP32]],
    yb: pl.Out[pl.Tensor[[B, N, K], pl.FP32]],
    yc: pl.Out[pl.Tensor[[B, N, K], pl.FP32]],
):
    clone_batch(a, ya)
    clone_cols(b, c, yb, yc)


@pl.jit.host
def expand_clone(
    a: pl.Tensor[[N_RANKS, 1, N, K], pl.FP32],
    b: pl.Tensor[[N_RANKS, B, N, 1], pl.FP32],
    c: pl.Tensor[[N_RANKS, B, N, K], pl.FP32],
    ya: pl.Out[pl.Tensor[[N_RANKS, B, N, K], pl.FP32]],
    yb: pl.Out[pl.Tensor[[N_RANKS, B, N, K], pl.FP32]],
    yc: pl.Out[pl.Tensor[[N_RANKS, B, N, K], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(a[r], b[r], c[r], ya[r], yb[r], yc[r], device=r)
