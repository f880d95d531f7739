"""Kernels defined outside any @pl.program class, as PyPTO's examples share them between programs
(test_outside_kernels.py calls them by name)."""

import pypto.language as pl

COLS = 16


@pl.function(type=pl.FunctionType.InCore)
def kernel_scale(
    x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]
) -> pl.Tensor[[4, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [4, COLS])
    return pl.store(pl.mul(t, 3.0), [0, 0], y)


@pl.function(type=pl.FunctionType.InCore)
def kernel_offset(
    x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]
) -> pl.Tensor[[4, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [4, COLS])
    return pl.store(pl.add(t, 1.0), [0, 0], y)


def make_kernel_add(value):
    """A kernel factory: each call defines the kernel again with its own `value`."""

    @pl.function(type=pl.FunctionType.InCore)
    def kernel_add(
        x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]
    ) -> pl.Tensor[[4, COLS], pl.FP32]:
        t = pl.load(x, [0, 0], [4, COLS])
        return pl.store(pl.add(t, value), [0, 0], y)

    return kernel_add
