# pl.matmul / pl.matmul_acc as pypto-lib's moe models call them: on GM tensors with b_trans (and
# a_trans), out_dtype naming the accumulator, INT8 x INT8 into INT32 (tensor and tile forms); and
# pl.maximum / pl.minimum of a tile or tensor and a scalar, pl.rsqrt(tensor, high_precision=True),
# pl.tile.store(..., shapes=). Golden values from numpy (small integers: exact).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*4*16).reshape(2, 4, 16) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(2*8*16).reshape(2, 8, 16) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/ai.npy "((np.arange(2*4*16).reshape(2, 4, 16) * 37) % 255 - 127).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/wi.npy "((np.arange(2*8*16).reshape(2, 8, 16) * 53) % 256 - 128).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*16, dtype=np.float32).reshape(2, 4, 16) % 13) * 0.5 - 2"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in w=%t/w.npy --in ai=%t/ai.npy --in wi=%t/wi.npy --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t bt "2 * (a.astype(np.float32) @ w.astype(np.float32).transpose(0, 2, 1))"
# RUN: %numpy %S/Inputs/npy.py check %t at "a.astype(np.float32).transpose(0, 2, 1)[:, :8, :] @ a.astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t it "(ai.astype(np.int64) @ wi.astype(np.int64).transpose(0, 2, 1)).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t itile "(ai.astype(np.int64) @ wi.astype(np.int64).transpose(0, 2, 1) * 2).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t clamp "np.maximum(np.minimum(x, 1.5), -1.0)"
# RUN: %numpy %S/Inputs/npy.py check %t tclamp "np.minimum(np.maximum(x, -0.5), 2.0)"
# RUN: %numpy %S/Inputs/npy.py check %t rs "1 / np.sqrt(np.abs(x) + 1)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in w=%t/w.npy --in ai=%t/ai.npy --in wi=%t/wi.npy --in x=%t/x.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 4
K = 16
N = 8


@pl.jit.incore
def tensor_forms(
    a: pl.Tensor[[M, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    ai: pl.Tensor[[M, K], pl.INT8],
    wi: pl.Tensor[[N, K], pl.INT8],
    bt: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    at: pl.Out[pl.Tensor[[N, K], pl.FP32]],
    it: pl.Out[pl.Tensor[[M, N], pl.INT32]],
):
    # IR: p = pl.matmul(a, w, out_dtype=pl.FP32, b_trans=True)
    p = pl.matmul(a, w, b_trans=True, out_dtype=pl.FP32)
    # IR: p = pl.matmul_acc(p, a, w, b_trans=True)
    p = pl.matmul_acc(p, a, w, b_trans=True)
    bt = pl.assemble(bt, p, [0, 0])
    # a is [M, K]: with a_trans it is the [K, M] lhs of a^T @ a, whose first N rows are kept
    q = pl.matmul(a, a, a_trans=True)
    at = pl.assemble(at, pl.slice(q, [N, K], [0, 0]), [0, 0])
    i = pl.matmul(ai, wi, b_trans=True, out_dtype=pl.INT32)
    it = pl.assemble(it, i, [0, 0])
    return bt, at, it


@pl.jit.incore
def tile_forms(
    ai: pl.Tensor[[M, K], pl.INT8],
    wi: pl.Tensor[[N, K], pl.INT8],
    x: pl.Tensor[[M, K], pl.FP32],
    itile: pl.Out[pl.Tensor[[M, N], pl.INT32]],
    clamp: pl.Out[pl.Tensor[[M, K], pl.FP32]],
    tclamp: pl.Out[pl.Tensor[[M, K], pl.FP32]],
    rs: pl.Out[pl.Tensor[[M, K], pl.FP32]],
):
    wt = pl.transpose(wi, 0, 1)
    la = pl.move(pl.load(ai, [0, 0], [M, K], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    rb = pl.move(pl.load(wt, [0, 0], [K, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
    acc = pl.matmul(la, rb, out_dtype=pl.INT32)
    acc = pl.matmul_acc(acc, la, rb)
    itile = pl.store(acc, [0, 0], itile)
    t = pl.load(x, [0, 0], [M, K])
    # IR: c = pl.maximums(pl.minimums(t, 1.5), -1.0)
    c = pl.maximum(pl.minimum(t, 1.5), -1.0)
    # IR: pl.tile.store(c, [0, 0], clamp, shapes=[M, K])
    pl.tile.store(c, [0, 0], clamp, shapes=[M, K])
    # IR: tc = pl.minimums(pl.maximums(x, -0.5), 2.0)
    tc = pl.minimum(pl.tensor.maximum(x, -0.5), 2.0)
    tclamp = pl.assemble(tclamp, tc, [0, 0])
    r = pl.rsqrt(pl.add(pl.abs(x), 1.0), high_precision=True)
    rs = pl.assemble(rs, r, [0, 0])
    return itile, clamp, tclamp, rs


@pl.jit
def per_rank(
    a: pl.Tensor[[M, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    ai: pl.Tensor[[M, K], pl.INT8],
    wi: pl.Tensor[[N, K], pl.INT8],
    x: pl.Tensor[[M, K], pl.FP32],
    bt: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    at: pl.Out[pl.Tensor[[N, K], pl.FP32]],
    it: pl.Out[pl.Tensor[[M, N], pl.INT32]],
    itile: pl.Out[pl.Tensor[[M, N], pl.INT32]],
    clamp: pl.Out[pl.Tensor[[M, K], pl.FP32]],
    tclamp: pl.Out[pl.Tensor[[M, K], pl.FP32]],
    rs: pl.Out[pl.Tensor[[M, K], pl.FP32]],
):
    tensor_forms(a, w, ai, wi, bt, at, it)
    return tile_forms(ai, wi, x, itile, clamp, tclamp, rs)


@pl.jit.host
def matmul_forms(
    a: pl.Tensor[[N_RANKS, M, K], pl.FP16],
    w: pl.Tensor[[N_RANKS, N, K], pl.FP16],
    ai: pl.Tensor[[N_RANKS, M, K], pl.INT8],
    wi: pl.Tensor[[N_RANKS, N, K], pl.INT8],
    x: pl.Tensor[[N_RANKS, M, K], pl.FP32],
    bt: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    at: pl.Out[pl.Tensor[[N_RANKS, N, K], pl.FP32]],
    it: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.INT32]],
    itile: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.INT32]],
    clamp: pl.Out[pl.Tensor[[N_RANKS, M, K], pl.FP32]],
    tclamp: pl.Out[pl.Tensor[[N_RANKS, M, K], pl.FP32]],
    rs: pl.Out[pl.Tensor[[N_RANKS, M, K], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(a[r], w[r], ai[r], wi[r], x[r], bt[r], at[r], it[r], itile[r], clamp[r], tclamp[r], rs[r], device=r)
