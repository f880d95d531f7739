# PyPTO's tensor-level pl.matmul / pl.matmul_acc beyond 2-D (its tensor_ops/matmul.cpp): leading batch
# dims broadcast as numpy's (right-aligned, a 1 repeats), the result [...batch, M, N]; a 1-D operand is
# a vector whose dim the result drops. The moe form first: an INT8 [M, K] lhs times a [1, N, K] slice
# of stacked expert weights with b_trans, accumulated, then reshaped to 2-D (pypto-lib's
# expert_routed.py). pl.tensor.matmul is the same op. Golden values from numpy (small integers: exact).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*4*16).reshape(2, 4, 16) * 37) % 255 - 127).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(2*3*8*16).reshape(2, 3, 8, 16) * 53) % 256 - 128).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*2*4*16).reshape(2, 2, 4, 16) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*2*16*8).reshape(2, 2, 16, 8) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/v.npy "((np.arange(2*16).reshape(2, 16) * 7) % 5 - 2).astype(np.float16)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --in a=%t/a.npy --in b=%t/b.npy --in v=%t/v.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t moe "sum(x.astype(np.int64) @ w[:, e].astype(np.int64).transpose(0, 2, 1) for e in (1, 2)).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t bb "a.astype(np.float32) @ b.astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t bc "a.astype(np.float32) @ b[:, :1].astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t bt "(a.astype(np.float32) @ b.astype(np.float32)).transpose(0, 1, 3, 2)"
# RUN: %numpy %S/Inputs/npy.py check %t outer "a.astype(np.float32)[:, :, None] @ b.astype(np.float32)[:, None]"
# RUN: %numpy %S/Inputs/npy.py check %t vm "(v.astype(np.float32)[:, None, :] @ b[:, 0].astype(np.float32))[:, 0]"
# RUN: %numpy %S/Inputs/npy.py check %t mv "(a[:, 0].astype(np.float32) @ v.astype(np.float32)[:, :, None])[:, :, 0]"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --in a=%t/a.npy --in b=%t/b.npy --in v=%t/v.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s
# The moe form is a batch of one, converted to tiles (tests/lit/ops/matmul_batch_of_one.py); a batch of
# more has no PTO lowering yet (PyPTO's is tile.batch_matmul, unrolled into per-batch tile.matmul): a
# located error.
# RUN: %python %S/../cli/Inputs/exit_code.py 1 ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
E = 3
B = 2
M = 4
K = 16
N = 8


@pl.jit.incore
def batched(
    x: pl.Tensor[[M, K], pl.INT8],
    w: pl.Tensor[[E, N, K], pl.INT8],
    a: pl.Tensor[[B, M, K], pl.FP16],
    b: pl.Tensor[[B, K, N], pl.FP16],
    v: pl.Tensor[[K], pl.FP16],
    moe: pl.Out[pl.Tensor[[M, N], pl.INT32]],
    bb: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    bc: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    bt: pl.Out[pl.Tensor[[B, N, M], pl.FP32]],
    outer: pl.Out[pl.Tensor[[B, B, M, N], pl.FP32]],
    vm: pl.Out[pl.Tensor[[N], pl.FP32]],
    mv: pl.Out[pl.Tensor[[M], pl.FP32]],
):
    # CHECK: acc = pl.matmul(x, pl.slice(w, [1, N, K], [1, 0, 0]), out_dtype=pl.INT32, b_trans=True)
    acc = pl.matmul(x, w[1:2, :, :], b_trans=True, out_dtype=pl.INT32)
    # CHECK-NEXT: acc = pl.matmul_acc(acc, x, pl.slice(w, [1, N, K], [2, 0, 0]), b_trans=True)
    acc = pl.matmul_acc(acc, x, w[2:3, :, :], b_trans=True)
    moe = pl.assemble(moe, pl.reshape(acc, [M, N]), [0, 0])
    # PTO: matmul_batched.py:[[@LINE+2]]:26: error: pl.assemble: assembling a GM tensor (not a tile) has no PTO lowering yet
    # CHECK: bb = pl.assemble(bb, pl.tensor.matmul(a, b), [0, 0, 0])
    bb = pl.assemble(bb, pl.tensor.matmul(a, b), [0, 0, 0])
    # A 2-D rhs is one matrix for every batch.
    b0 = pl.reshape(b[0:1, :, :], [K, N])
    bc = pl.assemble(bc, pl.matmul(a, b0), [0, 0, 0])
    # b^T @ a^T = (a @ b)^T, batch by batch
    bt = pl.assemble(bt, pl.matmul(b, a, a_trans=True, b_trans=True), [0, 0, 0])
    # [B, 1, M, K] x [B, K, N]: every lhs matrix times every rhs matrix
    # CHECK: o = pl.matmul(pl.reshape(a, [B, 1, M, K]), b)
    o = pl.matmul(pl.reshape(a, [B, 1, M, K]), b)
    outer = pl.assemble(outer, o, [0, 0, 0, 0])
    vm = pl.assemble(vm, pl.matmul(v, b0), [0])
    mv = pl.assemble(mv, pl.matmul(pl.reshape(a[0:1, :, :], [M, K]), v), [0])
    return moe, bb, bc, bt, outer, vm, mv


@pl.jit
def per_rank(
    x: pl.Tensor[[M, K], pl.INT8],
    w: pl.Tensor[[E, N, K], pl.INT8],
    a: pl.Tensor[[B, M, K], pl.FP16],
    b: pl.Tensor[[B, K, N], pl.FP16],
    v: pl.Tensor[[K], pl.FP16],
    moe: pl.Out[pl.Tensor[[M, N], pl.INT32]],
    bb: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    bc: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    bt: pl.Out[pl.Tensor[[B, N, M], pl.FP32]],
    outer: pl.Out[pl.Tensor[[B, B, M, N], pl.FP32]],
    vm: pl.Out[pl.Tensor[[N], pl.FP32]],
    mv: pl.Out[pl.Tensor[[M], pl.FP32]],
):
    return batched(x, w, a, b, v, moe, bb, bc, bt, outer, vm, mv)


@pl.jit.host
def matmul_batched(
    x: pl.Tensor[[N_RANKS, M, K], pl.INT8],
    w: pl.Tensor[[N_RANKS, E, N, K], pl.INT8],
    a: pl.Tensor[[N_RANKS, B, M, K], pl.FP16],
    b: pl.Tensor[[N_RANKS, B, K, N], pl.FP16],
    v: pl.Tensor[[N_RANKS, K], pl.FP16],
    moe: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.INT32]],
    bb: pl.Out[pl.Tensor[[N_RANKS, B, M, N], pl.FP32]],
    bc: pl.Out[pl.Tensor[[N_RANKS, B, M, N], pl.FP32]],
    bt: pl.Out[pl.Tensor[[N_RANKS, B, N, M], pl.FP32]],
    outer: pl.Out[pl.Tensor[[N_RANKS, B, B, M, N], pl.FP32]],
    vm: pl.Out[pl.Tensor[[N_RANKS, N], pl.FP32]],
    mv: pl.Out[pl.Tensor[[N_RANKS, M], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], w[r], a[r], b[r], v[r], moe[r], bb[r], bc[r], bt[r], outer[r], vm[r], mv[r], device=r)
