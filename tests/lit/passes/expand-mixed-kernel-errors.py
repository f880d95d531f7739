# RUN: ptodist check %s --verify-diagnostics
# expand-mixed-kernel: what the split of a mixed kernel cannot express is a located error. On a2a3 the
# cube and vector cores share no registers, and after the split nothing orders their GM accesses, so
# data may cross only as a tile moved with pl.move.
import pypto.language as pl


@pl.program
class Errors:
    # The vector half would read a tensor the cube half writes, with nothing in between.
    @pl.function(type=pl.FunctionType.InCore)
    def through_gm(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        t: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        xl = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        xr = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        t = pl.store(pl.matmul(xl, xr, out_dtype=pl.FP32), [0, 0], t)
        # expected-error@+1 {{expand-mixed-kernel: the vector (AIV) half reads 't', which the cube (AIC) half writes; after the split they run on different cores and nothing orders the two. Hand the data over as a tile with pl.move, or compute it in a kernel of its own}}
        v = pl.load(t, [0, 0], [16, 16])
        y = pl.store(pl.adds(v, 1.0), [0, 0], y)

    # The tile crosses inside the loop, but is read after it: its pipe slot is freed at the loop's end.
    @pl.function(type=pl.FunctionType.InCore)
    def read_after_block(
        self,
        x: pl.Tensor[[16, 16], pl.FP16],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        xl = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        xr = pl.move(pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        acc = pl.matmul(xl, xr, out_dtype=pl.FP32)
        v = pl.full([16, 16], dtype=pl.FP32, value=0.0)
        for i in pl.range(2):
            # expected-error@+1 {{expand-mixed-kernel: the tile 'v', which crosses between the cores here, is read after the loop or branch it crosses in; ptodist frees its pipe slot at the end of that block. Read it only there, or copy it first}}
            v = pl.move(acc, target_memory=pl.Mem.Vec)
        y = pl.store(pl.adds(v, 1.0), [0, 0], y)
