# `with pl.cluster():` (PyPTO's co-scheduled group of AIC and AIV kernels, one task on the device) runs
# its body in place: a block launch inside it computes what it computes alone, then the next statement
# reads its result. The dump has no cluster left. Golden from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(4*16, dtype=np.float32).reshape(4, 16) - 9"
# RUN: ptodist run %s --entry main --ranks 1 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "(x + 1) * 2"
# RUN: ptodist run %s --entry main --ranks 1 --in x=%t/x.npy --mode check --runs 3
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl

N = 16
B = 4


@pl.program
class Clustered:
    @pl.function(type=pl.FunctionType.InCore)
    def inc(
        self, x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]
    ) -> pl.Tensor[[B, N], pl.FP32]:
        i = pl.tile.get_block_idx()
        return pl.store(pl.add(pl.load(x, [i, 0], [1, N]), 1.0), [i, 0], y)

    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self, x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]
    ) -> pl.Tensor[[B, N], pl.FP32]:
        t = pl.load(x, [0, 0], [B, N])
        return pl.store(pl.add(t, t), [0, 0], y)

    # CHECK-LABEL: def main(
    # CHECK-NOT: cluster
    # CHECK: tmp, _ = pl.spmd_submit(self.inc, x, tmp, core_num=B)
    # CHECK-NEXT: y = self.double(tmp, y)
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]
    ) -> pl.Tensor[[B, N], pl.FP32]:
        tmp: pl.Tensor[[B, N], pl.FP32] = pl.create_tensor([B, N], dtype=pl.FP32)
        with pl.cluster(name_hint="inc_group"):
            with pl.spmd(B):
                tmp = self.inc(x, tmp)
        y = self.double(tmp, y)
        return y
