# GM tensors as values in a kernel, as PyPTO's programs write them: pl.slice (a view of a row),
# pl.add of a tensor and a scalar and pl.tensor.add of two tensors (each a new tensor), pl.assemble
# (written back at an offset), pl.create_tensor and pl.tensor.dim. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(2*16*32, dtype=np.float32).reshape(2, 16, 32) / 16"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# y = 2 * (x + 1) + 16 (the row count, from pl.tensor.dim)
# RUN: %numpy %S/Inputs/npy.py check %t y "2 * (x + 1) + 16"
# In PTO the row is a load, the arithmetic tile ops and the scratch a Vec tile the sum is moved into
# (convert-tensor-to-tile; pl.tensor.dim is its constant; tests/lit/pto/tensor_level.py checks what it
# cannot lower).
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: %scratch = pto.alloc_tile {{.*}}loc=vec, dtype=f32, rows=1, cols=32
# PTO: pto.tload ins(%x_pview
# PTO-NEXT: pto.tadds ins(%x_row
# PTO-NEXT: pto.tadd ins(%y_row, %y_row
# PTO-NEXT: %assemble_view = pto.subview %scratch[%c0, %c0] sizes [1, 32]
# PTO-NEXT: pto.tmov ins(%doubled {{.*}} outs(%assemble_view
# PTO: pto.tadds ins(%scratch
# PTO: pto.tstore ins(%shifted
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 16
COLS = 32


@pl.program
class TensorValues:
    @pl.function(type=pl.FunctionType.InCore)
    def twice_plus_one(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        rows = pl.tensor.dim(x, 0)
        scratch = pl.create_tensor([1, COLS], dtype=pl.FP32)
        for row in pl.range(ROWS):
            x_row = pl.slice(x, [1, COLS], [row, 0])
            y_row = pl.add(x_row, 1.0)
            doubled = pl.tensor.add(y_row, y_row)
            scratch = pl.assemble(scratch, doubled, [0, 0])
            shifted = pl.add(scratch, pl.cast(rows, pl.FP32))
            y = pl.assemble(y, shifted, [row, 0])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def child(
        self,
        x: pl.Tensor[[ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        y = self.twice_plus_one(x, y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
        y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.child(x[r], y[r], device=r)
