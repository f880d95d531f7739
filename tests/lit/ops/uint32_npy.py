# A pl.UINT32 tensor reads from and writes to .npy as numpy's '<u4' (sort indices, pl.arange with
# dtype=pl.UINT32): the ramp and the input's copy come back bit for bit. Golden from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/u.npy "(np.arange(8, dtype=np.uint32) * 536870912 + 7).reshape(1, 8)"
# RUN: ptodist run %s --entry orchestrator --in u=%t/u.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t ramp "np.arange(5, 13, dtype=np.uint32).reshape(1, 8)"
# RUN: %numpy %S/Inputs/npy.py check %t copy "u"
import pypto.language as pl


@pl.program
class Uint32Npy:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        u: pl.Tensor[[1, 8], pl.UINT32],
        ramp: pl.Out[pl.Tensor[[1, 8], pl.UINT32]],
        copy: pl.Out[pl.Tensor[[1, 8], pl.UINT32]],
    ):
        ramp = pl.store(pl.tile.arange(5, [1, 8], dtype=pl.UINT32), [0, 0], ramp)
        copy = pl.store(pl.load(u, [0, 0], [1, 8]), [0, 0], copy)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        u: pl.Tensor[[1, 8], pl.UINT32],
        ramp: pl.Out[pl.Tensor[[1, 8], pl.UINT32]],
        copy: pl.Out[pl.Tensor[[1, 8], pl.UINT32]],
    ):
        self.kernel(u, ramp, copy)
