# The tensor-level forms of the unary family: pl.tensor.sqrt of an INT32 tensor gives an FP32 tensor
# (PyPTO promotes), pl.neg and pl.tensor.recip of GM tensors. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) + 1) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/n.npy "np.arange(2*4*8, dtype=np.int32).reshape(2, 4, 8)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in n=%t/n.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "np.sqrt(n).astype(np.float32) - 1 / x"
# The tensor forms have no PTO lowering yet, and say so.
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: error: pl.tensor.sqrt: the tensor-level form (GM tensors in, a new tensor out) has no PTO lowering yet
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def unary_tensors(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    n: pl.Tensor[[ROWS, COLS], pl.INT32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    roots: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.tensor.sqrt(n)
    minus = pl.neg(pl.tensor.recip(x))
    y = pl.assemble(y, pl.add(roots, minus), [0, 0])
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    n: pl.Tensor[[ROWS, COLS], pl.INT32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    return unary_tensors(x, n, y)


@pl.jit.host
def unary_tensor_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    n: pl.Tensor[[N_RANKS, ROWS, COLS], pl.INT32],
    y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], n[r], y[r], device=r)
