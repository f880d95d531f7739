"""@pl.function kernels outside the @pl.program class, called by bare name from its methods: imported
from another module (outside_kernels.py) or defined in this file, as PyPTO's paged-attention tests
call the kernels of its examples (ptodist/externals.py)."""

import numpy as np
import pypto.language as pl
import pytest
from outside_kernels import COLS, kernel_offset, kernel_scale, make_kernel_add

import ptodist


@pl.function(type=pl.FunctionType.InCore)
def kernel_double(
    x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]
) -> pl.Tensor[[4, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [4, COLS])
    return pl.store(pl.add(t, t), [0, 0], y)


@pl.program
class Chain:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]):
        a = pl.create_tensor([4, COLS], dtype=pl.FP32)
        b = pl.create_tensor([4, COLS], dtype=pl.FP32)
        a = kernel_scale(x, a)
        b = kernel_offset(a, b)
        y = kernel_double(b, y)


def make_offset_twice():
    """A program built in a function, reaching one imported kernel twice."""

    @pl.program
    class OffsetTwice:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]):
            a = pl.create_tensor([4, COLS], dtype=pl.FP32)
            a = kernel_offset(x, a)
            y = kernel_offset(a, y)

    return OffsetTwice


def make_built_kernel(value):
    """A kernel a factory of another module built, bound to a name of its own (as PyPTO's
    paged-attention tests bind `kernel_qk = make_kernel_qk_matmul(...)`)."""
    kernel_add_value = make_kernel_add(value)

    @pl.program
    class BuiltKernel:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[4, COLS], pl.FP32], y: pl.Out[pl.Tensor[[4, COLS], pl.FP32]]):
            y = kernel_add_value(x, y)

    return BuiltKernel


@pytest.mark.parametrize("program, golden", [(Chain, lambda x: (x * 3 + 1) * 2),
                                             (make_offset_twice(), lambda x: x + 2),
                                             (make_built_kernel(5.0), lambda x: x + 5),
                                             (make_built_kernel(-0.5), lambda x: x - 0.5)],
                         ids=["chain", "twice", "built", "built-again"])
def test_kernels_outside_the_class_are_called_by_name(program, golden):
    compiled = ptodist.compile(program, ranks=2)
    x = np.arange(4 * COLS, dtype=np.float32).reshape(4, COLS)
    y = np.zeros_like(x)
    compiled(x, y)
    np.testing.assert_array_equal(y, golden(x))
