# An FP16 column sum rounds every add to FP16, as the device's TCOLSUM adds rows with FP16 vector adds:
# in order, row after row, without a tmp tile; pairwise (rows 2i and 2i+1 into row i, level after
# level, an odd last row folded into row 0) with one. Summing in FP32 and rounding once differs from
# both in several columns of this input (12 rows: the pairwise form meets an odd level). Golden values
# from numpy's float16 arithmetic, which rounds each add the same way.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*12*16).reshape(2, 12, 16) * 1.37) %% 30 - 13.1).astype(np.float16)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t in_order "np.add.accumulate(x, axis=1)[:, -1:, :]"
# RUN: %numpy %S/Inputs/npy.py check %t tensor_form "np.add.accumulate(x, axis=1)[:, -1:, :]"
# RUN: %numpy %S/Inputs/npy.py check %t pairwise "np.stack([(lambda f: f(f, r))(lambda f, b: b if len(b) == 1 else f(f, (lambda p: np.concatenate([p[:1] + b[-1:], p[1:]]) if len(b) %% 2 else p)(b[0:len(b) // 2 * 2:2] + b[1:len(b) // 2 * 2:2]))) for r in x])"
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 12
COLS = 16


@pl.jit.incore
def col_sums(
    x: pl.Tensor[[ROWS, COLS], pl.FP16],
    in_order: pl.Out[pl.Tensor[[1, COLS], pl.FP16]],
    pairwise: pl.Out[pl.Tensor[[1, COLS], pl.FP16]],
    tensor_form: pl.Out[pl.Tensor[[1, COLS], pl.FP16]],
):
    t = pl.load(x, [0, 0], [ROWS, COLS])
    tmp = pl.create_tile([ROWS, COLS], dtype=pl.FP16)
    in_order = pl.store(pl.tile.col_sum(t), [0, 0], in_order)
    pairwise = pl.store(pl.tile.col_sum(t, tmp), [0, 0], pairwise)
    tensor_form = pl.assemble(tensor_form, pl.tensor.col_sum(x), [0, 0])
    return in_order, pairwise, tensor_form


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP16],
    in_order: pl.Out[pl.Tensor[[1, COLS], pl.FP16]],
    pairwise: pl.Out[pl.Tensor[[1, COLS], pl.FP16]],
    tensor_form: pl.Out[pl.Tensor[[1, COLS], pl.FP16]],
):
    return col_sums(x, in_order, pairwise, tensor_form)


@pl.jit.host
def col_sum_fp16(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP16],
    in_order: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP16]],
    pairwise: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP16]],
    tensor_form: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP16]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], in_order[r], pairwise[r], tensor_form[r], device=r)
