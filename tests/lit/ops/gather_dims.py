# pl.tensor.gather's index form along any dim of a tensor of rank >= 2, as torch.gather and PyPTO's
# tensor.gather: out[p] = x[p with its `dim` coordinate replaced by index[p]]; off that dim the index may
# be smaller than the input. Goldens from numpy's take_along_axis of the matching corner of x.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*8*16, dtype=np.float32).reshape(2, 8, 16) * 5) % 37"
# RUN: %numpy %S/Inputs/npy.py save %t/idx.npy "((np.arange(2*3*8).reshape(2, 3, 8) * 7) % 8).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py save %t/idx0.npy "((np.arange(3*8*16).reshape(3, 8, 16) * 3) % 2).astype(np.int32)"
# RUN: ptodist run %s --entry main --in x=%t/x.npy --in idx=%t/idx.npy --in idx0=%t/idx0.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t mid "np.take_along_axis(x[:, :, :8], idx, axis=1)"
# RUN: %numpy %S/Inputs/npy.py check %t last "np.take_along_axis(x[:, :3, :], idx, axis=2)"
# RUN: %numpy %S/Inputs/npy.py check %t first "np.take_along_axis(x, idx0, axis=0)"
# RUN: ptodist run %s --entry main --in x=%t/x.npy --in idx=%t/idx.npy --in idx0=%t/idx0.npy --mode check
import pypto.language as pl


@pl.program
class GatherDims:
    @pl.function
    def main(
        self,
        x: pl.Tensor[[2, 8, 16], pl.FP32],
        idx: pl.Tensor[[2, 3, 8], pl.INT32],
        idx0: pl.Tensor[[3, 8, 16], pl.INT32],
        mid: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]],
        last: pl.Out[pl.Tensor[[2, 3, 8], pl.FP32]],
        first: pl.Out[pl.Tensor[[3, 8, 16], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP):
            mid = pl.assemble(mid, pl.tensor.gather(x, dim=1, index=idx), [0, 0, 0])
            last = pl.assemble(last, pl.tensor.gather(x, dim=-1, index=idx), [0, 0, 0])
            first = pl.assemble(first, pl.gather(x, dim=-3, index=idx0), [0, 0, 0])
