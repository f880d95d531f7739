# The tensor-level forms of the broadcast family, as pypto-lib's RMSNorm writes them:
# pl.col_expand_mul(pl.row_expand_mul(x, inv_rms), gamma) on GM tensors. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) % 5 + 1) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/s.npy "np.arange(2*4, dtype=np.float32).reshape(2, 4, 1) + 1"
# RUN: %numpy %S/Inputs/npy.py save %t/g.npy "np.arange(2*8, dtype=np.float32).reshape(2, 1, 8) / 8"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in s=%t/s.npy --in g=%t/g.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "x * s * g + (s + 0 * x) - np.exp(x - g)"
# The tensor-level forms have no PTO lowering yet: compile says so at the first one.
# RUN: %python %S/../cli/Inputs/exit_code.py 1 ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: expand_tensor_ops.py:[[@LINE+16]]:14: error: pl.col_expand_mul: the tensor-level form (GM tensors in, a new tensor out) has no PTO lowering yet
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def expand_tensors(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    s: pl.Tensor[[ROWS, 1], pl.FP32],
    g: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    normed = pl.col_expand_mul(pl.row_expand_mul(x, s), g)
    spread = pl.tensor.row_expand(x, s)
    e = pl.tensor.col_expand_expdif(x, g)
    y = pl.assemble(y, pl.sub(pl.add(normed, spread), e), [0, 0])
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    s: pl.Tensor[[ROWS, 1], pl.FP32],
    g: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    return expand_tensors(x, s, g, y)


@pl.jit.host
def expand_tensor_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    s: pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32],
    g: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], s[r], g[r], y[r], device=r)
