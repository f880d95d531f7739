# A kernel with several results launched by `with pl.spmd(n):` (`a, b = self.k(...)`), as PyPTO's
# parser takes it: one launch on n blocks, its results the kernel's (every block writes its rows of
# the same Out tensors), unpacked after it. The dump shows the launch and the unpacking. Golden from
# numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(4*16, dtype=np.float32).reshape(4, 16) - 9"
# RUN: ptodist run %s --entry main --ranks 1 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "(x + 1) + x * 2"
# RUN: ptodist run %s --entry main --ranks 1 --in x=%t/x.npy --mode check --runs 3
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl

N = 16
B = 4


@pl.program
class MultiResult:
    @pl.function(type=pl.FunctionType.InCore)
    def split(
        self,
        x: pl.Tensor[[B, N], pl.FP32],
        inc: pl.Out[pl.Tensor[[B, N], pl.FP32]],
        dbl: pl.Out[pl.Tensor[[B, N], pl.FP32]],
    ) -> tuple[pl.Tensor[[B, N], pl.FP32], pl.Tensor[[B, N], pl.FP32]]:
        i = pl.tile.get_block_idx()
        t = pl.load(x, [i, 0], [1, N])
        inc = pl.store(pl.add(t, 1.0), [i, 0], inc)
        dbl = pl.store(pl.add(t, t), [i, 0], dbl)
        return inc, dbl

    @pl.function(type=pl.FunctionType.InCore)
    def total(
        self,
        a: pl.Tensor[[B, N], pl.FP32],
        b: pl.Tensor[[B, N], pl.FP32],
        y: pl.Out[pl.Tensor[[B, N], pl.FP32]],
    ) -> pl.Tensor[[B, N], pl.FP32]:
        s = pl.add(pl.load(a, [0, 0], [B, N]), pl.load(b, [0, 0], [B, N]))
        return pl.store(s, [0, 0], y)

    # CHECK-LABEL: def main(
    # CHECK: _split_results, _ = pl.spmd_submit(self.split, x, inc, dbl, core_num=B)
    # CHECK-NEXT: inc, dbl = _split_results
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self, x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]
    ) -> pl.Tensor[[B, N], pl.FP32]:
        inc: pl.Tensor[[B, N], pl.FP32] = pl.create_tensor([B, N], dtype=pl.FP32)
        dbl: pl.Tensor[[B, N], pl.FP32] = pl.create_tensor([B, N], dtype=pl.FP32)
        with pl.spmd(B):
            inc, dbl = self.split(x, inc, dbl)
        y = self.total(inc, dbl, y)
        return y
