# Kernels outside any class, for the programs of external_functions.test to call by name.
import pypto.language as pl

COLS = 8


@pl.function(type=pl.FunctionType.InCore)
def kernel_scale(x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [1, COLS])
    y = pl.store(pl.mul(t, 3.0), [0, 0], y)
    return y


@pl.function(type=pl.FunctionType.InCore)
def kernel_offset(x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [1, COLS])
    y = pl.store(pl.add(t, 1.0), [0, 0], y)
    return y


def host_helper():
    return 0
