# pl.assemble of a source of lower rank than its target writes it as if it had leading dims of 1, as
# PyPTO's tensor.assemble takes a 2-D source into a 3-D parent: here each [4, 16] chunk a kernel
# computes lands in out[b] of a [2, 4, 16] tensor. Golden from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(4*16, dtype=np.float32).reshape(4, 16) - 7"
# RUN: ptodist run %s --entry orch --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t out "np.stack([x * 1, x * 2])"
# RUN: ptodist run %s --entry orch --in x=%t/x.npy --mode check
import pypto.language as pl


@pl.program
class LowerRank:
    @pl.function(type=pl.FunctionType.InCore)
    def compute(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        k: pl.Scalar[pl.INDEX],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
    ) -> pl.Tensor[[4, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 16])
        y = pl.store(pl.muls(t, pl.cast(k + 1, pl.FP32)), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 4, 16], pl.FP32]],
    ) -> pl.Tensor[[2, 4, 16], pl.FP32]:
        for b in pl.range(2):
            chunk: pl.Tensor[[4, 16], pl.FP32] = pl.create_tensor([4, 16], dtype=pl.FP32)
            chunk = self.compute(x, b, chunk)
            out = pl.assemble(out, chunk, [b, 0, 0])
        return out
