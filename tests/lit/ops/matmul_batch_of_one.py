# pypto-lib's routed-expert matmul (expert_routed.py's gate / up / w2 projections): a [1, M, N]
# pl.create_tensor accumulator, split-K over a 2-D activation slice and a [1, N, K] slice of a 3-D
# expert weight with b_trans, then reshaped to [M, N] into a slice of the output. convert-tensor-to-tile
# makes it a batch of one, as PyPTO's FlattenTileNdTo2D does: the accumulator the 2-D Acc tile of its
# matrix, the weight slice a natural Mat load of its 3-D region read transposed through
# pl.tile.transpose_view, the reshape the accumulator itself; a K step too large for L0B is cut into K
# chunks. The results are numpy's (INT8 inputs, INT32 sums: exact), in fast and check mode.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*16*64).reshape(2, 16, 64) * 5) % 9 - 4).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(2*3*16*64).reshape(2, 3, 16, 64) * 3) % 7 - 3).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*16*4096).reshape(2, 16, 4096) * 7) % 9 - 4).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*2*64*4096).reshape(2, 2, 64, 4096) * 5) % 7 - 3).astype(np.int8)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --in a=%t/a.npy --in b=%t/b.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "np.concatenate([x.astype(np.int32) @ w[:, e].astype(np.int32).transpose(0, 2, 1) for e in range(3)], 2)"
# RUN: %numpy %S/Inputs/npy.py check %t z "b[:, 1].astype(np.int32) @ a.astype(np.int32).transpose(0, 2, 1)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --in a=%t/a.npy --in b=%t/b.npy --mode check --runs 2
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
E = 3
M = 16
K = 64
KC = 32
N = 16
KB = 2048


# CHECK-LABEL: def experts(
@pl.jit.incore
def experts(
    x: pl.Tensor[[M, K], pl.INT8],
    w: pl.Tensor[[E, N, K], pl.INT8],
    y: pl.Out[pl.Tensor[[M, E * N], pl.INT32]],
):
    for e in pl.range(E):
        # CHECK: acc = pl.create_tile([16, 16], pl.INT32, target_memory=pl.Mem.Acc)
        acc = pl.create_tensor([1, M, N], dtype=pl.INT32)
        for kb in pl.range(K // KC):
            k0 = kb * KC
            # CHECK: xk = pl.load(x, [0, k0], [16, 32], target_memory=pl.Mem.Mat)
            xk = x[0:M, k0 : k0 + KC]
            # CHECK: w_mat = pl.load(w, [e, 0, k0], [1, 16, 32], target_memory=pl.Mem.Mat)
            # CHECK-NEXT: wk = pl.tile.transpose_view(w_mat)
            wk = w[e : e + 1, 0:N, k0 : k0 + KC]
            if kb == 0:
                # CHECK: acc = pl.matmul(pl.move(xk, pl.Mem.Left), pl.move(wk, pl.Mem.Right), out_dtype=pl.INT32)
                acc = pl.matmul(xk, wk, b_trans=True, out_dtype=pl.INT32)
            else:
                # CHECK: acc = pl.matmul_acc(acc, pl.move(xk, pl.Mem.Left), pl.move(wk, pl.Mem.Right))
                acc = pl.matmul_acc(acc, xk, wk, b_trans=True)
        # CHECK: y = pl.assemble(y, acc, [0, e * 16])
        y[:, e * N : (e + 1) * N] = pl.reshape(acc, [M, N])
    return y


# The weight as the lhs ([1, 64, 4096] of a 3-D tensor, no transpose): each K step's [64, 2048] INT8
# slice takes 128 KiB, L0A holds 64, so two chunks of 1024 are loaded where the slice is bound.
# CHECK-LABEL: def chunked(
@pl.jit.incore
def chunked(
    a: pl.Tensor[[M, 2 * KB], pl.INT8],
    b: pl.Tensor[[2, 64, 2 * KB], pl.INT8],
    z: pl.Out[pl.Tensor[[64, M], pl.INT32]],
):
    big = pl.create_tensor([1, 64, M], dtype=pl.INT32)
    for kb in pl.range(2):
        k0 = kb * KB
        # CHECK: bc_k0 = pl.load(b, [1, 0, k0], [1, 64, 1024], target_memory=pl.Mem.Mat)
        # CHECK-NEXT: bc_k1 = pl.load(b, [1, 0, k0 + 1024], [1, 64, 1024], target_memory=pl.Mem.Mat)
        bc = b[1:2, 0:64, k0 : k0 + KB]
        ac = a[0:M, k0 : k0 + KB]
        if kb == 0:
            big = pl.matmul(bc, ac, b_trans=True, out_dtype=pl.INT32)
        else:
            big = pl.matmul_acc(big, bc, ac, b_trans=True)
    # CHECK: z = pl.assemble(z, big, [0, 0])
    z = pl.assemble(z, pl.reshape(big, [64, M]), [0, 0])
    return z


@pl.jit
def per_rank(
    x: pl.Tensor[[M, K], pl.INT8],
    w: pl.Tensor[[E, N, K], pl.INT8],
    y: pl.Out[pl.Tensor[[M, E * N], pl.INT32]],
    a: pl.Tensor[[M, 2 * KB], pl.INT8],
    b: pl.Tensor[[2, 64, 2 * KB], pl.INT8],
    z: pl.Out[pl.Tensor[[64, M], pl.INT32]],
):
    experts(x, w, y)
    return chunked(a, b, z)


@pl.jit.host
def matmul_batch_of_one(
    x: pl.Tensor[[N_RANKS, M, K], pl.INT8],
    w: pl.Tensor[[N_RANKS, E, N, K], pl.INT8],
    y: pl.Out[pl.Tensor[[N_RANKS, M, E * N], pl.INT32]],
    a: pl.Tensor[[N_RANKS, M, 2 * KB], pl.INT8],
    b: pl.Tensor[[N_RANKS, 2, 64, 2 * KB], pl.INT8],
    z: pl.Out[pl.Tensor[[N_RANKS, 64, M], pl.INT32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], w[r], y[r], a[r], b[r], z[r], device=r)
