"""@pl.jit functions with bare `pl.Tensor` parameters take their shapes and dtypes from the tensors a
call passes, and pass them on to the jit functions they call (ptodist/jit_shapes.py, as PyPTO's
specializer does); one specialization per set of shapes."""

import ptodist
import pytest
import torch
from ptodist.jit_shapes import specialize
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import RunConfig

import jit_bare

CONFIG = RunConfig(distributed_config=DistributedConfig(device_ids=[0]))


def run(rows, cols, dtype=torch.float32):
    a = torch.randn(rows, cols).to(dtype)
    b = torch.randn(rows, cols).to(dtype)
    tmp, out = torch.zeros(rows, cols, dtype=dtype), torch.zeros(rows, cols, dtype=dtype)
    jit_bare.scaled_sum.compile(a, b, tmp, out, config=CONFIG)(a, b, tmp, out)
    t = jit_bare.TILE_ROWS
    return a, b, tmp, out, t


def test_shapes_flow_from_the_host_call_through_out_parameters():
    a, b, tmp, out, t = run(8, 16)
    assert torch.equal(tmp[:t], a[:t] + b[:t])
    assert torch.equal(out[:t], (a[:t] + b[:t]) * 2.0)
    assert torch.equal(out[t:], torch.zeros(8 - t, 16))


def test_each_set_of_shapes_is_its_own_specialization():
    _, _, _, out16, t = run(4, 16)
    a, b, _, out32, _ = run(4, 32, torch.float16)
    assert out16.shape == (4, 16) and out32.dtype == torch.float16
    assert torch.equal(out32[:t], (a[:t] + b[:t]) * 2.0)
    f32 = jit_bare.scaled_sum.program(torch.zeros(4, 16), torch.zeros(4, 16), torch.zeros(4, 16), torch.zeros(4, 16))
    f16 = jit_bare.scaled_sum.program(*[torch.zeros(4, 32, dtype=torch.float16)] * 4)
    assert f32 is not f16


def test_the_table_names_every_bare_parameter_reached():
    x = torch.zeros(8, 16)
    table = {(j.__name__, p): (s, d) for j, p, s, d in specialize(jit_bare.scaled_sum, [x, x, x, x])}
    assert table[("scale_tile", "x")] == ([8, 16], "FP32")  # through add_tiles' Out parameter
    assert table[("add_tiles", "out")] == ([8, 16], "FP32")
    assert len(table) == 4 + 4 + 3 + 2


def test_one_function_called_with_two_shapes_is_a_clear_error():
    with pytest.raises(TypeError, match=r"'add_tiles' is called with parameter 'a' of shape \[4, 16\] FP32 and of shape"):
        specialize(jit_bare.twice_add, [torch.zeros(4, 16), torch.zeros(8, 16), torch.zeros(4, 16), torch.zeros(8, 16)])


def test_without_tensors_a_bare_parameter_is_a_located_error():
    with pytest.raises(ptodist.CompileError) as e:
        jit_bare.scaled_sum.program().compile(ranks=1)
    text = str(e.value)
    assert "jit_bare.py:12:18: error: 'pl.Tensor' needs its parameters" in text
    assert "takes the shape of the tensor passed to it" in text


def test_a_create_tensor_intermediate_has_its_written_type():
    a, b, out = torch.randn(8, 16), torch.randn(8, 16), torch.zeros(8, 16)
    table = {(j.__name__, p): (s, d) for j, p, s, d in specialize(jit_bare.sum_then_scale, [a, b, out])}
    assert table[("add_tiles", "out")] == ([8, 16], "FP32")
    assert table[("scale_tile", "x")] == ([8, 16], "FP32")
    jit_bare.sum_then_scale(a, b, out)
    t = jit_bare.TILE_ROWS
    assert torch.equal(out[:t], (a[:t] + b[:t]) * 2.0)


def test_a_call_result_has_the_type_of_the_parameter_its_callee_returns():
    a, out = torch.randn(8, 16), torch.zeros(8, 16)
    table = {(j.__name__, p): (s, d) for j, p, s, d in specialize(jit_bare.inline_chain, [a, out])}
    assert table[("add_one_inline", "dst")] == ([8, 16], "FP32")
    assert table[("double_inline", "x")] == ([8, 16], "FP32")  # `mid`, as add_one_inline returned it
    jit_bare.inline_chain(a, out)
    t = jit_bare.TILE_ROWS
    assert torch.equal(out[:t], (a[:t] + 1.0) * 2.0)
