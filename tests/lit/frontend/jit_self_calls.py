# PyPTO's @pl.jit makes the functions of a program methods of one @pl.program class, so a jit function
# may name another as `self.<name>`, called or passed to pl.spmd_submit (pypto-lib's deepseek_v4_pro
# moe.py). The program holds the jit functions reached by name, as PyPTO's dep discovery finds them:
# an `if False:` call is the hint that reaches one named only through self (it checks, never runs;
# tests/python/test_jit_models.py has the error when the hint is missing).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(2*4*16, dtype=np.float32).reshape(2, 4, 16)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "x * 3 + 1"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
B = 4
N = 16


@pl.jit.incore
def triple(x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]):
    y = pl.store(pl.mul(pl.load(x, [0, 0], [B, N]), 3.0), [0, 0], y)
    return y


@pl.jit.incore
def add_one(y: pl.InOut[pl.Tensor[[B, N], pl.FP32]]):
    i = pl.tile.get_block_idx()
    y = pl.store(pl.add(pl.load(y, [i, 0], [1, N]), 1.0), [i, 0], y)
    return y


@pl.jit
def per_rank(x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]):
    # CHECK-LABEL: def per_rank(
    # CHECK: y = triple(x, y)
    y = self.triple(x, y)  # noqa: F821
    # CHECK: if False:
    # CHECK-NEXT: add_one(y)
    if False:
        add_one(y)
    # CHECK: y, tid = pl.spmd_submit(add_one, y, core_num=B)
    y, tid = pl.spmd_submit(self.add_one, y, core_num=B)  # noqa: F821
    return y


@pl.jit.host
def jit_self_calls(x: pl.Tensor[[N_RANKS, B, N], pl.FP32], y: pl.Out[pl.Tensor[[N_RANKS, B, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], y[r], device=r)
