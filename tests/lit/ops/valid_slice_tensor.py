# A slice with valid_shape read only by tensor-level arithmetic stays a tensor: its region past the
# valid one is zeros, as PyPTO's load pads it, and only the valid region must lie inside the tensor
# (pypto-lib's hc_pre.py and expert_shared.py slice their last row block past the edge, "valid_shape
# zero-fills the tail", as a matmul operand). Here rows 4..12 of an 8-row x, 4 of them valid, and the
# first 3 of w's 8 columns as a b_trans rhs. And a partially valid slice of a computed tensor as a slice
# assignment's source (hc_pre.py's `post[...] = pl.slice(post_pad, ..., valid_shape=...)`): a load of
# its valid region and a store. Golden values from numpy (small integers: exact).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*8*16).reshape(2, 8, 16) * 5) % 9 - 4).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(2*8*16).reshape(2, 8, 16) * 3) % 7 - 3).astype(np.float16)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "np.concatenate([x[:, 4:].astype(np.float32) @ np.concatenate([w[:, :3], np.zeros((2, 5, 16))], 1).astype(np.float32).transpose(0, 2, 1), np.zeros((2, 4, 8), np.float32)], 1)"
# RUN: %numpy %S/Inputs/npy.py check %t post "x[:, :, :4].astype(np.float32) * 2"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in w=%t/w.npy --mode check --runs 2
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 8
K = 16
N = 8


@pl.jit.incore
def tail_rows(
    x: pl.Tensor[[M, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    y: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    post: pl.Out[pl.Tensor[[M, 4], pl.FP32]],
):
    rows = pl.slice(x, [M, K], [4, 0], valid_shape=[4, K])
    cols = pl.slice(w, [N, K], [0, 0], valid_shape=[3, K])
    p = pl.matmul(rows, cols, b_trans=True, out_dtype=pl.FP32)
    y = pl.assemble(y, p, [0, 0])
    pad = pl.mul(pl.cast(x, target_type=pl.FP32), 2.0)
    post[0:M, 0:4] = pl.slice(pad, [M, K], [0, 0], valid_shape=[M, 4])
    return y, post


@pl.jit
def per_rank(
    x: pl.Tensor[[M, K], pl.FP16],
    w: pl.Tensor[[N, K], pl.FP16],
    y: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    post: pl.Out[pl.Tensor[[M, 4], pl.FP32]],
):
    return tail_rows(x, w, y, post)


@pl.jit.host
def valid_slice_tensor(
    x: pl.Tensor[[N_RANKS, M, K], pl.FP16],
    w: pl.Tensor[[N_RANKS, N, K], pl.FP16],
    y: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    post: pl.Out[pl.Tensor[[N_RANKS, M, 4], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], w[r], y[r], post[r], device=r)
