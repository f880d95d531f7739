# pl.tile.matmul_bias (PyPTO's tile.matmul_bias): lhs @ rhs + bias, the [1, N] bias added to every row,
# into the accumulator dtype: FP16 operands read from Mat (as PyPTO's st tests pass them) and from
# Left / Right / Bias, INT8 operands with an INT32 bias (wrapping as the cube's accumulator does), and
# a lhs loaded with valid_shape=[5, 32], whose product is valid (and stored) over its 5 rows only.
# Golden values from numpy; small integers, so every float sum is exact.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*16*32).reshape(2, 16, 32) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*32*16).reshape(2, 32, 16) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/bias.npy "(np.arange(2*16).reshape(2, 1, 16) * 0.5 - 4).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/ai.npy "((np.arange(2*16*32).reshape(2, 16, 32) * 37) % 255 - 127).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/bi.npy "((np.arange(2*32*16).reshape(2, 32, 16) * 53) % 256 - 128).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/biasi.npy "(np.arange(2*16).reshape(2, 1, 16) * 1000003 - 2**31 + 5).astype(np.int32)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in bias=%t/bias.npy --in ai=%t/ai.npy --in bi=%t/bi.npy --in biasi=%t/biasi.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y_mat "a.astype(np.float32) @ b.astype(np.float32) + bias"
# RUN: %numpy %S/Inputs/npy.py check %t y_l0 "a.astype(np.float32) @ b.astype(np.float32) + bias"
# RUN: %numpy %S/Inputs/npy.py check %t y_int "(ai.astype(np.int64) @ bi.astype(np.int64) + biasi).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t y_narrow "np.concatenate([(a.astype(np.float32) @ b.astype(np.float32) + bias)[:, :5], np.zeros((2, 11, 16), np.float32)], 1)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in bias=%t/bias.npy --in ai=%t/ai.npy --in bi=%t/bi.npy --in biasi=%t/biasi.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 16
K = 32
N = 16


@pl.jit.incore
def biased(
    a: pl.Tensor[[M, K], pl.FP16],
    b: pl.Tensor[[K, N], pl.FP16],
    bias: pl.Tensor[[1, N], pl.FP32],
    ai: pl.Tensor[[M, K], pl.INT8],
    bi: pl.Tensor[[K, N], pl.INT8],
    biasi: pl.Tensor[[1, N], pl.INT32],
    y_mat: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    y_l0: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    y_int: pl.Out[pl.Tensor[[M, N], pl.INT32]],
    y_narrow: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    a_mat = pl.load(a, [0, 0], [M, K], target_memory=pl.Mem.Mat)
    b_mat = pl.load(b, [0, 0], [K, N], target_memory=pl.Mem.Mat)
    bias_mat = pl.load(bias, [0, 0], [1, N], target_memory=pl.Mem.Mat)
    # CHECK: c = pl.tile.matmul_bias(a_mat, b_mat, bias_mat)
    c = pl.tile.matmul_bias(a_mat, b_mat, bias_mat)
    y_mat = pl.store(c, [0, 0], y_mat)
    # CHECK: bias_bt = pl.move(bias_mat, pl.Mem.Bias)
    # CHECK-NEXT: d = pl.matmul_bias(pl.move(a_mat, pl.Mem.Left), pl.move(b_mat, pl.Mem.Right), bias_bt)
    bias_bt = pl.move(bias_mat, target_memory=pl.Mem.Bias)
    d = pl.matmul_bias(pl.move(a_mat, target_memory=pl.Mem.Left), pl.move(b_mat, target_memory=pl.Mem.Right), bias_bt)
    y_l0 = pl.store(d, [0, 0], y_l0)
    ai_mat = pl.load(ai, [0, 0], [M, K], target_memory=pl.Mem.Mat)
    bi_mat = pl.load(bi, [0, 0], [K, N], target_memory=pl.Mem.Mat)
    biasi_mat = pl.load(biasi, [0, 0], [1, N], target_memory=pl.Mem.Mat)
    e = pl.tile.matmul_bias(ai_mat, bi_mat, biasi_mat)
    y_int = pl.store(e, [0, 0], y_int)
    a5 = pl.load(a, [0, 0], [M, K], valid_shape=[5, K], target_memory=pl.Mem.Mat)
    f = pl.tile.matmul_bias(a5, b_mat, bias_mat)
    y_narrow = pl.store(f, [0, 0], y_narrow)
    return y_mat, y_l0, y_int, y_narrow


@pl.jit.host
def matmul_bias(
    a: pl.Tensor[[N_RANKS, M, K], pl.FP16],
    b: pl.Tensor[[N_RANKS, K, N], pl.FP16],
    bias: pl.Tensor[[N_RANKS, 1, N], pl.FP32],
    ai: pl.Tensor[[N_RANKS, M, K], pl.INT8],
    bi: pl.Tensor[[N_RANKS, K, N], pl.INT8],
    biasi: pl.Tensor[[N_RANKS, 1, N], pl.INT32],
    y_mat: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    y_l0: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    y_int: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.INT32]],
    y_narrow: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        biased(a[r], b[r], bias[r], ai[r], bi[r], biasi[r], y_mat[r], y_l0[r], y_int[r], y_narrow[r], device=r)
