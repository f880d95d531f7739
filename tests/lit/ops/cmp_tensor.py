# pl.cmp / pl.tensor.cmp of GM tensors (PyPTO's tensor.cmp): a new tensor of lhs's shape and dtype, 1
# where the comparison holds and 0 elsewhere, against a tensor or a scalar; the bucket count of
# pypto-lib's turboquant_kv.py (pl.add of pl.cmp against thresholds). Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/lhs.npy "(np.arange(2 * 4 * 8).reshape(2, 4, 8) % 9 - 4).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/rhs.npy "(np.arange(2 * 4 * 8).reshape(2, 4, 8) % 7 - 3).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in lhs=%t/lhs.npy --in rhs=%t/rhs.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t ge "(lhs >= rhs).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t ne "(lhs != 0).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t buckets "((lhs >= -1).astype(np.float32) + (lhs >= 2))"
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: error: pl.cmp: the tensor-level form (GM tensors in, a new tensor out) has no PTO lowering yet
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 4
N = 8


@pl.jit.incore
def compare(
    lhs: pl.Tensor[[M, N], pl.FP32],
    rhs: pl.Tensor[[M, N], pl.FP32],
    ge: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ne: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    buckets: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    # IR: g = pl.cmp(lhs, rhs, cmp_type=5)
    g = pl.cmp(lhs, rhs, cmp_type=5)
    ge = pl.assemble(ge, g, [0, 0])
    ne = pl.assemble(ne, pl.tensor.cmp(lhs, 0.0, cmp_type=1), [0, 0])
    b = pl.add(pl.cmp(lhs, -1.0, cmp_type=5), pl.cmp(lhs, 2.0, cmp_type=5))
    buckets = pl.assemble(buckets, b, [0, 0])
    return ge, ne, buckets


@pl.jit
def per_rank(
    lhs: pl.Tensor[[M, N], pl.FP32],
    rhs: pl.Tensor[[M, N], pl.FP32],
    ge: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ne: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    buckets: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    return compare(lhs, rhs, ge, ne, buckets)


@pl.jit.host
def cmp_tensor(
    lhs: pl.Tensor[[N_RANKS, M, N], pl.FP32],
    rhs: pl.Tensor[[N_RANKS, M, N], pl.FP32],
    ge: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    ne: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    buckets: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(lhs[r], rhs[r], ge[r], ne[r], buckets[r], device=r)
