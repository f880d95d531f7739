# pl.tile.matmul_acc's init_cond (PyPTO's split-K idiom): where it holds the accumulator is
# overwritten with lhs @ rhs, elsewhere added to. The accumulator starts as another product, so a
# dropped init_cond shows in the result. Golden values from numpy (small integers: exact in FP32).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "(np.arange(2*8*32, dtype=np.float32).reshape(2, 8, 32) % 5) - 2"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "(np.arange(2*32*16, dtype=np.float32).reshape(2, 32, 16) % 7) - 3"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in w=%t/w.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t split_k "a @ w"
# The literal forms: True overwrites the first block's product, False adds to it.
# RUN: %numpy %S/Inputs/npy.py check %t literal "a[:, :, :16] @ w[:, :16, :] + a[:, :, 16:] @ w[:, 16:, :] * 2"
# A run-time predicate has no PTO lowering yet; compile says so where it is written.
# RUN: %python %S/../cli/Inputs/exit_code.py 1 ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: matmul_init_cond.py:[[@LINE+25]]:{{[0-9]+}}: error: pl.tile.matmul_acc: a run-time 'init_cond' has no PTO lowering yet (a literal True or False has)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 8
K = 32
N = 16
K_TILE = 16


@pl.jit.incore
def split_k_kernel(
    a: pl.Tensor[[M, K], pl.FP32],
    w: pl.Tensor[[K, N], pl.FP32],
    split_k: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    literal: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    first_a = pl.move(pl.load(a, [0, 0], [M, K_TILE], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    first_w = pl.move(pl.load(w, [0, 0], [K_TILE, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
    acc = pl.matmul(first_a, first_w)
    for kb in pl.range(K // K_TILE):
        k0 = kb * K_TILE
        ak = pl.move(pl.load(a, [0, k0], [M, K_TILE], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        wk = pl.move(pl.load(w, [k0, 0], [K_TILE, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        acc = pl.tile.matmul_acc(acc, ak, wk, init_cond=(kb == 0))
    split_k = pl.store(acc, [0, 0], split_k)
    last_a = pl.move(pl.load(a, [0, K_TILE], [M, K_TILE], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
    last_w = pl.move(pl.load(w, [K_TILE, 0], [K_TILE, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
    lit = pl.matmul(last_a, last_w)
    lit = pl.matmul_acc(lit, first_a, first_w, init_cond=True)
    lit = pl.tile.matmul_acc(lit, last_a, last_w, False)
    lit = pl.tile.matmul_acc(lit, last_a, last_w)
    literal = pl.store(lit, [0, 0], literal)
    return split_k, literal


@pl.jit
def per_rank(
    a: pl.Tensor[[M, K], pl.FP32],
    w: pl.Tensor[[K, N], pl.FP32],
    split_k: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    literal: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    return split_k_kernel(a, w, split_k, literal)


@pl.jit.host
def matmul_init_cond(
    a: pl.Tensor[[N_RANKS, M, K], pl.FP32],
    w: pl.Tensor[[N_RANKS, K, N], pl.FP32],
    split_k: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    literal: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(a[r], w[r], split_k[r], literal[r], device=r)
