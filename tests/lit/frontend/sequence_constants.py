# A name bound to a list or tuple constant stands for that literal wherever a list written in place is
# accepted: an op's list argument (`valid_shape=VALID`), a shape in a type, `NAME[i]`, through other
# names and in a factory. The kernel adds 1 to the [3, 5] corner of an [8, 8] tile; the store writes
# only that valid region of the zeroed output.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(64, dtype=np.float32).reshape(8, 8)"
# RUN: ptodist run %s --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "np.pad(x[:3, :5] + 1, ((0, 5), (0, 3)))"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl

SHAPE = (8, 8)
VALID = [3, 5]
ALIAS = VALID


def build(tile=SHAPE):
    ROWS = tile[0]

    @pl.program
    class Sequences:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[SHAPE, pl.FP32], y: pl.Out[pl.Tensor[tile, pl.FP32]]):
            # CHECK: t: pl.Tile{{\[\[}}8, 8], pl.FP32{{.*}}] = pl.load(x, [0, 0], (8, 8), valid_shape=[3, 5])
            t: pl.Tile[SHAPE, pl.FP32] = pl.load(x, [0, 0], tile, valid_shape=ALIAS)
            u = pl.add(t, 1.0)
            # CHECK: y = pl.store(u, [0, ROWS - 8], y)
            y = pl.store(u, [VALID[0] - 3, ROWS - 8], y)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]):
            self.kernel(x, y)

    return Sequences
