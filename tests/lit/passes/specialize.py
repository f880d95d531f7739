# RUN: ptodist compile %s -p specialize --emit=tile-ir --ranks 4 -D comm_cores=8 | FileCheck %s
# RUN: not ptodist compile %s -p specialize --emit=tile-ir --ranks 4 2>&1 | FileCheck %s --check-prefix=MISSING
# specialize binds factory parameters (-D, defaults, the rank count), folds constants in shapes and
# bodies, keeps only the taken branch of a constant `if`, and leaves no factory parameters.
import pypto.language as pl
import pypto.language.distributed as pld


# MISSING: error: factory parameter 'comm_cores' has no default; pass -D comm_cores=N
def make_program(world_size, comm_cores, tile=64):
    ROWS = tile * world_size
    HALF = tile // 2

    # CHECK: def make_program():
    # CHECK: def kernel(
    # CHECK-NEXT: x: pl.Tensor{{\[\[}}256, 128], pl.FP32],
    # CHECK-NEXT: y: pl.Out[pl.Tensor{{\[\[}}256, 128], pl.FP32]],
    # CHECK-NEXT: ) -> pl.Tensor{{\[\[}}256, 128], pl.FP32]:
    @pl.jit.incore
    def kernel(x: pl.Tensor[[ROWS, 128], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, 128], pl.FP32]]):
        # CHECK-NEXT: t = pl.load(x, [0, 0], [64, 128])
        t = pl.load(x, [0, 0], [tile, 128])
        # CHECK-NEXT: t = pl.muls(t, 8)
        # CHECK-NOT: pl.add
        if comm_cores > 4:
            t = pl.muls(t, comm_cores)
        else:
            t = pl.add(t, t)
        # CHECK-NEXT: y = pl.store(t, [32, 0], y)
        y = pl.store(t, [HALF, 0], y)
        return y

    return kernel
