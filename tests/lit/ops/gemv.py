# pl.tile.gemv / gemv_bias / gemv_acc (PyPTO's tile.gemv family): the one-row product A[1, K] @ B[K, N]
# in the accumulator dtype, into a [16, N] Acc tile valid over its one row (stored as that row): FP16
# operands from Mat, an FP32 bias, two K chunks accumulated through gemv then gemv_acc (with the
# acc_phase hints, which change no value), INT8 operands with an INT32 bias (wrapping as the cube's
# accumulator does), and narrowed K and N (valid_shape): only the valid columns are stored.
# Golden values from numpy; small integers, so every float sum is exact.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*128).reshape(2, 1, 128) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*128*32).reshape(2, 128, 32) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/bias.npy "(np.arange(2*32).reshape(2, 1, 32) * 0.5 - 4).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/ai.npy "((np.arange(2*64).reshape(2, 1, 64) * 37) % 255 - 127).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/bi.npy "((np.arange(2*64*32).reshape(2, 64, 32) * 53) % 256 - 128).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/biasi.npy "(np.arange(2*32).reshape(2, 1, 32) * 1000003 - 2**31 + 5).astype(np.int32)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in bias=%t/bias.npy --in ai=%t/ai.npy --in bi=%t/bi.npy --in biasi=%t/biasi.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "a[:, :, :64].astype(np.float32) @ b[:, :64].astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t y_bias "a[:, :, :64].astype(np.float32) @ b[:, :64].astype(np.float32) + bias"
# RUN: %numpy %S/Inputs/npy.py check %t y_acc "a.astype(np.float32) @ b.astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t y_int "(ai.astype(np.int64) @ bi.astype(np.int64) + biasi).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t y_narrow "np.concatenate([a[:, :, :40].astype(np.float32) @ b[:, :40, :20].astype(np.float32), np.zeros((2, 1, 12), np.float32)], 2)"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in b=%t/b.npy --in bias=%t/bias.npy --in ai=%t/ai.npy --in bi=%t/bi.npy --in biasi=%t/biasi.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
K = 128
N = 32


@pl.jit.incore
def vector_products(
    a: pl.Tensor[[1, K], pl.FP16],
    b: pl.Tensor[[K, N], pl.FP16],
    bias: pl.Tensor[[1, N], pl.FP32],
    ai: pl.Tensor[[1, 64], pl.INT8],
    bi: pl.Tensor[[64, N], pl.INT8],
    biasi: pl.Tensor[[1, N], pl.INT32],
    y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    y_bias: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    y_acc: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    y_int: pl.Out[pl.Tensor[[1, N], pl.INT32]],
    y_narrow: pl.Out[pl.Tensor[[1, N], pl.FP32]],
):
    a0 = pl.load(a, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
    b0 = pl.load(b, [0, 0], [64, N], target_memory=pl.Mem.Mat)
    a1 = pl.load(a, [0, 64], [1, 64], target_memory=pl.Mem.Mat)
    b1 = pl.load(b, [64, 0], [64, N], target_memory=pl.Mem.Mat)
    bias_mat = pl.load(bias, [0, 0], [1, N], target_memory=pl.Mem.Mat)
    # CHECK: c = pl.tile.gemv(a0, b0)
    c = pl.tile.gemv(a0, b0)
    y = pl.store(c, [0, 0], y)
    # CHECK: d = pl.gemv_bias(a0, b0, bias_mat)
    d = pl.gemv_bias(a0, b0, bias_mat)
    y_bias = pl.store(d, [0, 0], y_bias)
    # CHECK: acc = pl.tile.gemv(a0, b0, acc_phase="partial")
    # CHECK-NEXT: acc = pl.tile.gemv_acc(acc, a1, b1, acc_phase="final")
    acc = pl.tile.gemv(a0, b0, acc_phase="partial")
    acc = pl.tile.gemv_acc(acc, a1, b1, acc_phase="final")
    y_acc = pl.store(acc, [0, 0], y_acc)
    ai_mat = pl.load(ai, [0, 0], [1, 64], target_memory=pl.Mem.Mat)
    bi_mat = pl.load(bi, [0, 0], [64, N], target_memory=pl.Mem.Mat)
    biasi_mat = pl.load(biasi, [0, 0], [1, N], target_memory=pl.Mem.Mat)
    e = pl.tile.gemv_bias(ai_mat, bi_mat, biasi_mat)
    y_int = pl.store(e, [0, 0], y_int)
    a40 = pl.load(a, [0, 0], [1, 64], valid_shape=[1, 40], target_memory=pl.Mem.Mat)
    b40 = pl.load(b, [0, 0], [64, N], valid_shape=[40, 20], target_memory=pl.Mem.Mat)
    f = pl.tile.gemv(a40, b40)
    y_narrow = pl.store(f, [0, 0], y_narrow)
    return y, y_bias, y_acc, y_int, y_narrow


@pl.jit.host
def gemv(
    a: pl.Tensor[[N_RANKS, 1, K], pl.FP16],
    b: pl.Tensor[[N_RANKS, K, N], pl.FP16],
    bias: pl.Tensor[[N_RANKS, 1, N], pl.FP32],
    ai: pl.Tensor[[N_RANKS, 1, 64], pl.INT8],
    bi: pl.Tensor[[N_RANKS, 64, N], pl.INT8],
    biasi: pl.Tensor[[N_RANKS, 1, N], pl.INT32],
    y: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.FP32]],
    y_bias: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.FP32]],
    y_acc: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.FP32]],
    y_int: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.INT32]],
    y_narrow: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        vector_products(a[r], b[r], bias[r], ai[r], bi[r], biasi[r], y[r], y_bias[r], y_acc[r], y_int[r], y_narrow[r], device=r)
