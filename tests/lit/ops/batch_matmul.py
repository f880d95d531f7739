# pl.batch_matmul (PyPTO's tile.batch_matmul) on 3-D Mat tiles, as PyPTO's st tests call it: one
# product per batch index into a [B, M, N] Acc tile, the batch dims broadcast as numpy's (a [1, M, K]
# lhs against a [B, K, N] rhs), a rhs read transposed through pl.tile.transpose_view, and INT8 operands
# into INT32. Golden values from numpy; small integers, so every float sum is exact.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*3*16*32).reshape(2, 3, 16, 32) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*3*32*16).reshape(2, 3, 32, 16) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/ai.npy "((np.arange(2*3*16*32).reshape(2, 3, 16, 32) * 37) % 255 - 127).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/bi.npy "((np.arange(2*3*32*16).reshape(2, 3, 32, 16) * 53) % 256 - 128).astype(np.int8)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in ai=%t/ai.npy --in bi=%t/bi.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "a.astype(np.float32) @ b.astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t y_bcast "a[:, :1].astype(np.float32) @ b.astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t y_bt "a[:, :, :, :16].astype(np.float32) @ b[:, :, :16, :].astype(np.float32).transpose(0, 1, 3, 2)"
# RUN: %numpy %S/Inputs/npy.py check %t y_int "(ai.astype(np.int64) @ bi.astype(np.int64)).astype(np.int32)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in ai=%t/ai.npy --in bi=%t/bi.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
B = 3
M = 16
K = 32
N = 16


@pl.jit.incore
def batched(
    a: pl.Tensor[[B, M, K], pl.FP16],
    b: pl.Tensor[[B, K, N], pl.FP16],
    ai: pl.Tensor[[B, M, K], pl.INT8],
    bi: pl.Tensor[[B, K, N], pl.INT8],
    y: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    y_bcast: pl.Out[pl.Tensor[[B, M, N], pl.FP32]],
    y_bt: pl.Out[pl.Tensor[[B, M, 16], pl.FP32]],
    y_int: pl.Out[pl.Tensor[[B, M, N], pl.INT32]],
):
    ta = pl.load(a, [0, 0, 0], [B, M, K], target_memory=pl.Mem.Mat)
    tb = pl.load(b, [0, 0, 0], [B, K, N], target_memory=pl.Mem.Mat)
    # CHECK: c = pl.batch_matmul(ta, tb)
    c = pl.batch_matmul(ta, tb)
    y = pl.store(c, [0, 0, 0], y)
    t1 = pl.load(a, [0, 0, 0], [1, M, K], target_memory=pl.Mem.Mat)
    # CHECK: d = pl.tile.batch_matmul(t1, tb)
    d = pl.tile.batch_matmul(t1, tb)
    y_bcast = pl.store(d, [0, 0, 0], y_bcast)
    # b's first 16 rows of each batch, read as [B, 16 (K), 16 (N)] transposed: the rhs is [B, N, K]
    ta16 = pl.load(a, [0, 0, 0], [B, M, 16], target_memory=pl.Mem.Mat)
    tb16 = pl.load(b, [0, 0, 0], [B, 16, N], target_memory=pl.Mem.Mat)
    e = pl.batch_matmul(ta16, pl.tile.transpose_view(tb16))
    y_bt = pl.store(e, [0, 0, 0], y_bt)
    tai = pl.load(ai, [0, 0, 0], [B, M, K], target_memory=pl.Mem.Mat)
    tbi = pl.load(bi, [0, 0, 0], [B, K, N], target_memory=pl.Mem.Mat)
    f = pl.batch_matmul(tai, tbi)
    y_int = pl.store(f, [0, 0, 0], y_int)
    return y, y_bcast, y_bt, y_int


@pl.jit.host
def batch_matmul(
    a: pl.Tensor[[N_RANKS, B, M, K], pl.FP16],
    b: pl.Tensor[[N_RANKS, B, K, N], pl.FP16],
    ai: pl.Tensor[[N_RANKS, B, M, K], pl.INT8],
    bi: pl.Tensor[[N_RANKS, B, K, N], pl.INT8],
    y: pl.Out[pl.Tensor[[N_RANKS, B, M, N], pl.FP32]],
    y_bcast: pl.Out[pl.Tensor[[N_RANKS, B, M, N], pl.FP32]],
    y_bt: pl.Out[pl.Tensor[[N_RANKS, B, M, 16], pl.FP32]],
    y_int: pl.Out[pl.Tensor[[N_RANKS, B, M, N], pl.INT32]],
):
    for r in pl.range(pld.world_size()):
        batched(a[r], b[r], ai[r], bi[r], y[r], y_bcast[r], y_bt[r], y_int[r], device=r)
