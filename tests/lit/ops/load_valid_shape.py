# pl.load's keywords as PyPTO has them: `shapes` is the tile, `valid_shape` the region read (and the
# only region a later store writes), `clamp=True` cuts the region at the tensor's edge. A [4, 16] tile
# holding a [1, 5] row, and a clamped [2, 8] window at column 4 of an 8-column tensor.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*2*8, dtype=np.float32).reshape(2, 2, 8)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t row "x[:, :1, :5] + 1"
# RUN: %numpy %S/Inputs/npy.py check %t tail "np.concatenate([np.zeros((2, 2, 4), np.float32), x[:, :, 4:] * 2], axis=2)"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
# A partially valid tile has no PTO lowering yet, and compile says so at the load.
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: error: pl.load: a partially valid tile (valid_shape or clamp=True) has no PTO lowering yet
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2


@pl.program
class ValidShape:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[2, 8], pl.FP32],
        row: pl.Out[pl.Tensor[[1, 5], pl.FP32]],
        tail: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    ):
        # CHECK: t = pl.load(x, [0, 0], [4, 16], valid_shape=[1, 5])
        t = pl.load(x, [0, 0], shapes=[4, 16], valid_shape=[1, 5])
        t = pl.add(t, 1.0)
        row = pl.store(t, [0, 0], row)
        # CHECK: w = pl.tile.load(x, [0, 4], [2, 8], clamp=True)
        w = pl.tile.load(x, [0, 4], [2, 8], clamp=True)
        w = pl.mul(w, 2.0)
        tail = pl.store(w, [0, 4], tail)
        return row, tail

    @pl.function(type=pl.FunctionType.Orchestration)
    def child(
        self,
        x: pl.Tensor[[2, 8], pl.FP32],
        row: pl.Out[pl.Tensor[[1, 5], pl.FP32]],
        tail: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    ):
        row, tail = self.kernel(x, row, tail)
        return row, tail

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        x: pl.Tensor[[N_RANKS, 2, 8], pl.FP32],
        row: pl.Out[pl.Tensor[[N_RANKS, 1, 5], pl.FP32]],
        tail: pl.Out[pl.Tensor[[N_RANKS, 2, 8], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.child(x[r], row[r], tail[r], device=r)
