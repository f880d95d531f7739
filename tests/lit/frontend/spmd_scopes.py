# RUN: ptodist compile %s --emit=ir --program Spmd | FileCheck %s
# RUN: ptodist compile %s --emit=ir --program spmd_jit | FileCheck %s --check-prefix=JIT
# `pl.spmd(N)` as PyPTO's parser reads it: the body becomes a kernel and the scope its pl.spmd_submit on
# N blocks. The loop variable of `for i in pl.spmd(N)` is the block index; an inline with-body reads it
# itself; a dispatch body's one kernel call is submitted in place; a sole pl.at(CORE_GROUP) statement is
# the kernel (its name_hint names it). `as tid` binds the task id. A tensor the body writes stays the
# caller's variable (every block writes into the one buffer).
import pypto.language as pl

N = 16
B = 4


@pl.program
class Spmd:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(
        self, x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]
    ) -> pl.Tensor[[B, N], pl.FP32]:
        i = pl.tile.get_block_idx()
        y = pl.store(pl.load(x, [i, 0], [1, N]), [i, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[B, N], pl.FP32],
        y: pl.Out[pl.Tensor[[B, N], pl.FP32]],
        z: pl.Out[pl.Tensor[[B, N], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[B, N], pl.FP32]:
        # CHECK-LABEL: def main(
        # CHECK: _, _ = pl.spmd_submit(self.rows, x, y, core_num=B)
        for r in pl.spmd(B, name_hint="rows"):
            t = pl.load(x, [r, 0], [1, N])
            y = pl.store(pl.mul(t, 3.0), [r, 0], y)
        # CHECK-NEXT: _, tid = pl.spmd_submit(self.main_incore_1, y, z, core_num=n + 1)
        with pl.spmd(n + 1, sync_start=True) as tid:
            j = pl.tile.get_block_idx()
            t = pl.load(y, [j, 0], [1, N])
            z = pl.store(pl.add(t, 1.0), [j, 0], z)
        # CHECK-NEXT: with pl.manual_scope():
        with pl.manual_scope():
            # CHECK-NEXT: y, tid2 = pl.spmd_submit(self.scale, z, y, core_num=n, deps=[tid])
            with pl.spmd(n, deps=[tid]) as tid2:
                y = self.scale(z, y)
            # CHECK-NEXT: _, t3 = pl.spmd_submit(self.pairs, z, y, core_num=2, deps=[tid2])
            with pl.spmd(2, allow_early_resolve=True):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="pairs", deps=[tid2]) as t3:
                    k = pl.tile.get_block_idx()
                    z = pl.store(pl.load(y, [k * 2, 0], [2, N]), [k * 2, 0], z)
        # CHECK-NEXT: return z
        return z


# CHECK-LABEL: def rows(self, x: pl.Tensor{{\[\[}}B, N], pl.FP32], y: pl.Out[pl.Tensor{{\[\[}}B, N], pl.FP32]]):
# CHECK-NEXT: r = pl.tile.get_block_idx()
# CHECK-NEXT: t = pl.load(x, [r, 0], [1, N])
# CHECK-LABEL: def main_incore_1(self, y: pl.Tensor{{\[\[}}B, N], pl.FP32], z: pl.Out[pl.Tensor{{\[\[}}B, N], pl.FP32]]):
# CHECK-NEXT: j = pl.tile.get_block_idx()
# CHECK-LABEL: def pairs(self, z: pl.Out[pl.Tensor{{\[\[}}B, N], pl.FP32]], y: pl.Tensor{{\[\[}}B, N], pl.FP32]):
# CHECK-NEXT: k = pl.tile.get_block_idx()


@pl.jit.incore
def add_one(x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]):
    i = pl.tile.get_block_idx()
    y = pl.store(pl.add(pl.load(x, [i, 0], [1, N]), 1.0), [i, 0], y)


@pl.jit
def spmd_jit(x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]):
    # JIT-LABEL: def spmd_jit(
    # JIT: _, _ = pl.spmd_submit(add_one, x, y, core_num=B)
    with pl.spmd(B):
        add_one(x, y)
    # JIT-NEXT: _, _ = pl.spmd_submit(spmd_jit_incore_0, y, x, core_num=B // 2)
    for _ in pl.spmd(B // 2):
        i = pl.tile.get_block_idx()
        y = pl.store(pl.load(x, [i, 0], [1, N]), [i, 0], y)
    # A name a body assigns that the code after it binds afresh (a loop variable, as pypto-lib reuses
    # `ob` and `linear_split`) is no value flowing out of the scope.
    # JIT-NEXT: _, _ = pl.spmd_submit(spmd_jit_incore_1, y, x, core_num=B)
    for ob in pl.spmd(B):
        k = ob % 2
        y = pl.store(pl.load(x, [ob, 0], [1, N]), [ob, 0], y)
    # JIT-NEXT: _, _ = pl.spmd_submit(spmd_jit_incore_2, y, x, core_num=B)
    for ob in pl.spmd(B):
        for k in pl.range(1):
            y = pl.store(pl.load(x, [ob, 0], [1, N]), [ob, 0], y)
    # JIT-LABEL: def spmd_jit_incore_0(
    # JIT-NEXT: i = pl.tile.get_block_idx()
