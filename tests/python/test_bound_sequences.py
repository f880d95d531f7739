"""Lists and tuples that Python binds (a local of the function that builds the program, as PyPTO's
test cases compute `valid_shape = list(self.valid_shape)`) go wherever a list written in the kernel
goes: an op's list argument, a shape in a type, an element read by index. A bound bool is the literal
an op's flag wants (`clamp=clamp`)."""

import numpy as np
import pypto.language as pl
import pytest

import ptodist


def make_corner_add(valid, shape=(8, 8)):
    valid_shape = list(valid)
    rows, cols = shape
    clamp = False

    @pl.program
    class CornerAdd:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[shape, pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]):
            t: pl.Tile[shape, pl.FP32] = pl.load(x, [0, 0], shape, valid_shape=valid_shape, clamp=clamp)
            y = pl.store(pl.add(t, valid_shape[0] * 1.0), [0, 0], y)

        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, cols], pl.FP32], y: pl.Out[pl.Tensor[[rows, cols], pl.FP32]]):
            self.kernel(x, y)

    return CornerAdd


@pytest.mark.parametrize("valid", [(3, 5), (8, 8), (1, 2)])
def test_a_bound_list_is_the_valid_shape(valid):
    compiled = ptodist.compile(make_corner_add(valid), ranks=2)
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    y = np.zeros_like(x)
    compiled(x, y)
    r, c = valid
    expected = np.zeros_like(x)
    expected[:r, :c] = x[:r, :c] + r
    np.testing.assert_array_equal(y, expected)


def test_a_bound_list_of_the_wrong_length_is_reported_at_its_use():
    with pytest.raises(ptodist.CompileError) as e:
        ptodist.compile(make_corner_add((1, 2, 3)), ranks=2)
    first = str(e.value).splitlines()[0]
    assert first.startswith(f"{__file__}:") and "'valid_shape' must be a list of 2 integers" in first, str(e.value)
