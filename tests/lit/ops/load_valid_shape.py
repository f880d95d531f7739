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
# In PTO the tile's valid extents are alloc_tile operands; the load reads and the store writes the
# valid region only (tests/lit/pto/valid_shape.py has the details).
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: %t = pto.alloc_tile addr = %c0_i64 valid_row = %c1 valid_col = %c5 : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=?, v_col=?,
# PTO: %w = pto.alloc_tile addr = %c0_i64 valid_row = %c2 valid_col = %c4 : !pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=8, v_row=?, v_col=?,
# PTO: pto.tload ins(%x_pview : !pto.partition_tensor_view<1x5xf32>) outs(%t :
# PTO: pto.tstore ins(%t : {{.*}}) outs(%row_pview : !pto.partition_tensor_view<1x5xf32>)
# PTO: %x_pview_1 = pto.partition_view %x_view, offsets = [%c0, %c4], sizes = [%c2, %c4]
# PTO: %tail_pview = pto.partition_view %tail_view, offsets = [%c0, %c4], sizes = [%c2, %c4]
# PTO-NEXT: pto.tstore ins(%w : {{.*}}) outs(%tail_pview : !pto.partition_tensor_view<2x4xf32>)
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
