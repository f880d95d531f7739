# pypto-lib's split-K idiom as its moe models write it (hc_pre.py's linear, gate.py's gate matmul):
# a kernel-local pl.create_tensor accumulator, defined by pl.matmul in the first K step and by
# pl.matmul_acc in the others, on slices of GM tensors (the lhs partially valid: rows past the tensor's
# edge are zeros), b_trans, out_dtype; then assembled to GM, or (gate.py) rebound to vector arithmetic
# on it; and operands too large for L0A / L0B with their whole K step, cut into K chunks as PyPTO's
# AutoTileMatmulL0 cuts them. convert-tensor-to-tile makes the accumulator an Acc tile and the operands Mat loads (the b_trans
# one through a transposed view of its region) moved to Left / Right; the results are numpy's (small
# integers: exact), in fast and check mode.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*12*64).reshape(2, 12, 64) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(2*16*64).reshape(2, 16, 64) * 3) % 7 - 3).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/s.npy "(np.arange(2*16).reshape(2, 16, 1) % 3 - 1).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(2*16*4096).reshape(2, 16, 4096) * 7) % 9 - 4).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(2*16*4096).reshape(2, 16, 4096) * 5) % 7 - 3).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --in s=%t/s.npy --in a=%t/a.npy --in b=%t/b.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "np.concatenate([x.astype(np.float32) @ w.astype(np.float32).transpose(0, 2, 1), np.zeros((2, 4, 16), np.float32)], 1)"
# RUN: %numpy %S/Inputs/npy.py check %t g "np.maximum(np.concatenate([x.astype(np.float32) @ w.astype(np.float32).transpose(0, 2, 1), np.zeros((2, 4, 16), np.float32)], 1) * s, 0)"
# RUN: %numpy %S/Inputs/npy.py check %t k "np.concatenate([x.astype(np.float32) @ w.astype(np.float32).transpose(0, 2, 1), np.zeros((2, 4, 16), np.float32)], 1)"
# RUN: %numpy %S/Inputs/npy.py check %t z "a @ b.transpose(0, 2, 1)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --in s=%t/s.npy --in a=%t/a.npy --in b=%t/b.npy --mode check --runs 2
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
T = 12
M = 16
K = 64
KC = 32
N = 16
KB = 2048


# CHECK-LABEL: def split_k(
@pl.jit.incore
def split_k(
    x: pl.Tensor[[T, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    y: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    # CHECK: acc = pl.create_tile([16, 16], pl.FP32, target_memory=pl.Mem.Acc)
    acc = pl.create_tensor([M, N], dtype=pl.FP32)
    for kb in pl.range(K // KC):
        k0 = kb * KC
        # CHECK: xc = pl.load(x, [0, k0], [16, 32], valid_shape=[12, 32], target_memory=pl.Mem.Mat)
        xc = pl.slice(x, [M, KC], [0, k0], valid_shape=[T, KC])
        # CHECK: w_region = pl.slice(w, [16, 32], [0, k0])
        # CHECK: w_region_t = pl.transpose(w_region, 0, 1)
        # CHECK: wc = pl.load(w_region_t, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        wc = w[0:N, k0 : k0 + KC]
        if kb == 0:
            # CHECK: acc = pl.matmul(pl.move(xc, pl.Mem.Left), pl.move(wc, pl.Mem.Right), out_dtype=pl.FP32)
            acc = pl.matmul(xc, wc, b_trans=True, out_dtype=pl.FP32)
        else:
            # CHECK: acc = pl.matmul_acc(acc, pl.move(xc, pl.Mem.Left), pl.move(wc, pl.Mem.Right))
            acc = pl.matmul_acc(acc, xc, wc, b_trans=True)
    # CHECK: y = pl.assemble(y, acc, [0, 0])
    y = pl.assemble(y, acc, [0, 0])
    return y


# CHECK-LABEL: def gate_like(
@pl.jit.incore
def gate_like(
    x: pl.Tensor[[T, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    s: pl.Tensor[[M, 1], pl.FP32],
    g: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    # CHECK: logits = pl.create_tile([16, 16], pl.FP32, target_memory=pl.Mem.Acc)
    logits = pl.create_tensor([M, N], dtype=pl.FP32)
    for kb in pl.range(K // KC):
        k0 = kb * KC
        xc = pl.slice(x, [M, KC], [0, k0], valid_shape=[T, KC])
        wc = w[0:N, k0 : k0 + KC]
        if kb == 0:
            logits = pl.matmul(xc, wc, b_trans=True, out_dtype=pl.FP32)
        else:
            logits = pl.matmul_acc(logits, xc, wc, b_trans=True)
    # The rebinding is a Vec tile, a variable of its own after the Acc accumulator.
    # CHECK: logits = pl.matmul_acc(logits, pl.move(xc, pl.Mem.Left), pl.move(wc, pl.Mem.Right))
    # CHECK: logits_1 = pl.row_expand_mul(pl.move(logits, pl.Mem.Vec), pl.load(s, [0, 0], [16, 1]))
    logits = pl.row_expand_mul(logits, s[0:M, 0:1])
    # CHECK: g = pl.assemble(g, pl.maximums(logits_1, 0.0), [0, 0])
    g = pl.assemble(g, pl.maximum(logits, 0.0), [0, 0])
    return g


# A use with no tile form (a load of the product) keeps the accumulator a tensor.
# CHECK-LABEL: def kept(
@pl.jit.incore
def kept(
    x: pl.Tensor[[T, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    k: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    # CHECK: xs = pl.slice(x, [16, 64], [0, 0], valid_shape=[12, 64])
    # CHECK-NEXT: p = pl.matmul(xs, w, out_dtype=pl.FP32, b_trans=True)
    xs = pl.slice(x, [M, K], [0, 0], valid_shape=[T, K])
    p = pl.matmul(xs, w, b_trans=True, out_dtype=pl.FP32)
    t = pl.load(p, [0, 0], [M, N])
    k = pl.store(t, [0, 0], k)
    return k


# Each K step's [16, 2048] FP32 operands take 128 KiB, L0A / L0B hold 64: two chunks of 1024, loaded
# where the slice was bound, accumulated in turn.
# CHECK-LABEL: def chunked(
@pl.jit.incore
def chunked(
    a: pl.Tensor[[M, 2 * KB], pl.FP32],
    b: pl.Tensor[[N, 2 * KB], pl.FP32],
    z: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    big = pl.create_tensor([M, N], dtype=pl.FP32)
    for kb in pl.range(2):
        k0 = kb * KB
        # CHECK: ac_k0 = pl.load(a, [0, k0], [16, 1024], target_memory=pl.Mem.Mat)
        # CHECK-NEXT: ac_k1 = pl.load(a, [0, k0 + 1024], [16, 1024], target_memory=pl.Mem.Mat)
        ac = a[0:M, k0 : k0 + KB]
        # CHECK: bc_k0 = pl.load(b_region_t, [0, 0], [1024, 16], target_memory=pl.Mem.Mat)
        # CHECK: bc_k1 = pl.load(b_region_1_t, [0, 0], [1024, 16], target_memory=pl.Mem.Mat)
        bc = b[0:N, k0 : k0 + KB]
        if kb == 0:
            # CHECK: big = pl.matmul(pl.move(ac_k0, pl.Mem.Left), pl.move(bc_k0, pl.Mem.Right))
            # CHECK-NEXT: big = pl.matmul_acc(big, pl.move(ac_k1, pl.Mem.Left), pl.move(bc_k1, pl.Mem.Right))
            big = pl.matmul(ac, bc, b_trans=True)
        else:
            # CHECK: big = pl.matmul_acc(big, pl.move(ac_k0, pl.Mem.Left), pl.move(bc_k0, pl.Mem.Right))
            # CHECK-NEXT: big = pl.matmul_acc(big, pl.move(ac_k1, pl.Mem.Left), pl.move(bc_k1, pl.Mem.Right))
            big = pl.matmul_acc(big, ac, bc, b_trans=True)
    z = pl.assemble(z, big, [0, 0])
    return z


@pl.jit
def per_rank(
    x: pl.Tensor[[T, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    s: pl.Tensor[[M, 1], pl.FP32],
    y: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    g: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    k: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    a: pl.Tensor[[M, 2 * KB], pl.FP32],
    b: pl.Tensor[[N, 2 * KB], pl.FP32],
    z: pl.Out[pl.Tensor[[M, N], pl.FP32]],
):
    split_k(x, w, y)
    gate_like(x, w, s, g)
    chunked(a, b, z)
    return kept(x, w, k)


@pl.jit.host
def matmul_split_k(
    x: pl.Tensor[[N_RANKS, T, K], pl.FP16],
    w: pl.Tensor[[N_RANKS, N, K], pl.FP16],
    s: pl.Tensor[[N_RANKS, M, 1], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    g: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    k: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    a: pl.Tensor[[N_RANKS, M, 2 * KB], pl.FP32],
    b: pl.Tensor[[N_RANKS, N, 2 * KB], pl.FP32],
    z: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], w[r], s[r], y[r], g[r], k[r], a[r], b[r], z[r], device=r)
