# pl.tile.matmul_acc into a pl.tile.slice of a larger Acc tile accumulates in the parent's bytes (the
# device's slice is a subview of them): two column windows of one accumulator, each its own split-K
# reduction with init_cond, then the whole parent stored. The accumulator is never zeroed: the first
# K step of each window overwrites it. Golden values from numpy (small integers: exact in FP32).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "(np.arange(2*8*32, dtype=np.float32).reshape(2, 8, 32) %% 5) - 2"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "(np.arange(2*32*32, dtype=np.float32).reshape(2, 32, 32) %% 7) - 3"
# RUN: ptodist run %s --ranks 2 --in a=%t/a.npy --in w=%t/w.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t c "a @ w"
# The parent stays in its own bytes while a window of it is live (plan-memory).
# RUN: ptodist compile %s --emit=tile-ir | FileCheck %s
# CHECK: acc: pl.Tile{{\[\[}}8, 32], pl.FP32, pl.Mem.Acc, addr=[[ACC:[0-9]+]]{{]}}
# CHECK-NOT: addr=[[ACC]]{{]}} = pl.matmul
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 8
K = 32
N_TILE = 16
TILES = 2
K_TILE = 16


@pl.jit.incore
def window_kernel(
    a: pl.Tensor[[M, K], pl.FP32],
    w: pl.Tensor[[K, N_TILE * TILES], pl.FP32],
    c: pl.Out[pl.Tensor[[M, N_TILE * TILES], pl.FP32]],
):
    acc = pl.tile.create([M, N_TILE * TILES], pl.FP32, target_memory=pl.MemorySpace.Acc)
    for t in pl.range(TILES):
        for k0 in pl.range(0, K, K_TILE):
            ak = pl.move(pl.load(a, [0, k0], [M, K_TILE], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
            wk = pl.move(
                pl.load(w, [k0, t * N_TILE], [K_TILE, N_TILE], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right
            )
            win = pl.tile.slice(acc, [M, N_TILE], [0, t * N_TILE])
            win = pl.matmul_acc(win, ak, wk, init_cond=(k0 == 0))
    c = pl.store(acc, [0, 0], c)
    return c


@pl.jit
def per_rank(
    a: pl.Tensor[[M, K], pl.FP32],
    w: pl.Tensor[[K, N_TILE * TILES], pl.FP32],
    c: pl.Out[pl.Tensor[[M, N_TILE * TILES], pl.FP32]],
):
    return window_kernel(a, w, c)


@pl.jit.host
def matmul_acc_window(
    a: pl.Tensor[[N_RANKS, M, K], pl.FP32],
    w: pl.Tensor[[N_RANKS, K, N_TILE * TILES], pl.FP32],
    c: pl.Out[pl.Tensor[[N_RANKS, M, N_TILE * TILES], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(a[r], w[r], c[r], device=r)
