"""Tensor slices and tensor-level ops used inside tile arithmetic run with the values a hand formula
gives (tensor_tiles.py), in fast and in check mode."""

import pytest
import torch
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import RunConfig

import tensor_tiles as tt


@pytest.mark.parametrize("platform", ["ptodist", "ptodist-check"])
def test_row_sums_of_squares_over_slices_and_a_partial_tail(platform):
    config = RunConfig(platform=platform, distributed_config=DistributedConfig(device_ids=[0]))
    # Small integers: every square and sum is exact in FP32, so the comparison is bit-exact.
    x = torch.randint(-4, 5, (tt.ROWS, tt.COLS)).to(torch.float32)
    out = torch.full((tt.TILES * tt.T_TILE, 1), -1.0)
    tt.sum_squares.compile(x, out, config=config)(x, out)
    expected = torch.tensor([[float(sum(int(v) ** 2 for v in row))] for row in x])
    assert torch.equal(out[: tt.ROWS], expected)


@pytest.mark.parametrize("platform", ["ptodist", "ptodist-check"])
def test_partial_sums_assembled_into_a_tile_then_summed_and_tile_slices(platform):
    config = RunConfig(platform=platform, distributed_config=DistributedConfig(device_ids=[0]))
    x = torch.randint(-9, 10, (1, 64)).to(torch.float32)
    partials, total = torch.full((1, 8), -1.0), torch.full((1, 1), -1.0)
    middle, tail = torch.full((2, 8), -1.0), torch.full((4, 8), -1.0)
    outs = (partials, total, middle, tail)
    tt.two_level_sum.compile(x, *outs, config=config)(x, *outs)
    values = [int(v) for v in x[0]]
    assert partials.tolist() == [[float(sum(values[8 * j : 8 * j + 8])) for j in range(8)]]
    assert total.tolist() == [[float(sum(values))]]
    # Slices of the [8, 8] tile: rows 2:4 whole; rows 4:8 valid in two rows, so two rows are stored.
    assert middle.tolist() == [[float(v) for v in values[16:24]], [float(v) for v in values[24:32]]]
    assert tail.tolist() == [[float(v) for v in values[32:40]], [float(v) for v in values[40:48]]] + [[-1.0] * 8] * 2
