"""ptodist's Python entry point: compile from captured source and bound names, run on in-process ranks
over numpy arrays and torch tensors in place, reports as exceptions pointing into the user's file."""

import inspect

import numpy as np
import pytest
import torch

import ptodist
from ptodist import buffers
import ring_programs


def ring_golden(inputs):
    # rank r receives the rows of rank r - 1
    return np.roll(inputs, 1, axis=0)


@pytest.mark.parametrize("ranks", [2, 4])
def test_ring_numpy_in_place(ranks):
    compiled = ptodist.compile(ring_programs.make_ring(64), ranks=ranks)
    inputs = np.arange(ranks * 4 * 64, dtype=np.float32).reshape(ranks, 4, 64)
    outputs = np.zeros_like(inputs)
    result = compiled(inputs, outputs)
    np.testing.assert_array_equal(outputs, ring_golden(inputs))
    assert len(result.rank_seconds) == ranks


def test_ring_torch_factory_arguments():
    # cols and the dtype come from the factory's arguments, bound when the decorator ran
    compiled = ptodist.compile(ring_programs.make_ring(32, dtype=ring_programs.pl.FP16), ranks=3)
    inputs = torch.randn(3, 4, 32, dtype=torch.float16)
    outputs = torch.zeros_like(inputs)
    compiled(inputs, outputs)
    assert torch.equal(outputs, torch.roll(inputs, 1, dims=0))


def test_dense_buffers_are_passed_by_address():
    params = [("x", "FP32", [2, 4, 64], "in"), ("y", "FP32", [2, 4, 64], "out")]
    a = np.ones((2, 4, 64), np.float32)
    t = torch.zeros(2, 4, 64)
    bound = buffers.bind([a, t], params)
    assert bound.descriptors[0][0] == a.ctypes.data
    assert bound.descriptors[1][0] == t.data_ptr()
    assert bound.copies == []


def test_strided_output_is_copied_back():
    compiled = ptodist.compile(ring_programs.make_ring(64), ranks=2)
    inputs = np.random.default_rng(0).standard_normal((2, 4, 64)).astype(np.float32)
    storage = np.zeros((2, 4, 128), np.float32)
    outputs = storage[:, :, ::2]  # not dense: the runtime writes a copy, copied back after the run
    bound = buffers.bind([inputs, outputs], compiled.params)
    assert bound.descriptors[1][0] != outputs.ctypes.data
    compiled(inputs, outputs)
    np.testing.assert_array_equal(storage[:, :, ::2], ring_golden(inputs))
    assert not storage[:, :, 1::2].any()


def test_compile_error_points_into_the_users_file(tmp_path, monkeypatch):
    src = tmp_path / "typo_kernel.py"
    src.write_text(
        "import pypto.language as pl\n"
        "\n"
        "N = 8\n"
        "\n"
        "\n"
        "def build():\n"
        "    @pl.program\n"
        "    class Typo:\n"
        "        @pl.function(type=pl.FunctionType.InCore)\n"
        "        def k(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):\n"
        "            t = pl.lod(x, [0, 0], [1, N])\n"
        "            return pl.store(t, [0, 0], y)\n"
        "\n"
        "    return Typo\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import typo_kernel  # noqa: PLC0415

    with pytest.raises(ptodist.CompileError) as info:
        ptodist.compile(typo_kernel.build(), ranks=1)
    text = str(info.value)
    assert text.startswith(f"{src}:11:17: error: ")
    assert "            t = pl.lod(x, [0, 0], [1, N])" in text
    assert "^" in text


def test_check_mode_reports_both_lines():
    program = ring_programs.make_read_before_wait()
    lines, first = inspect.getsourcelines(ring_programs.make_read_before_wait)
    read_line = first + next(i for i, l in enumerate(lines) if "recv = pl.load(dst" in l)
    put_line = first + next(i for i, l in enumerate(lines) if "pld.tensor.put(dst" in l)
    inputs = np.ones((2, 1, 64), np.float32)
    outputs = np.zeros_like(inputs)
    for seed in range(1, 21):
        try:
            ptodist.compile(program, ranks=2, mode="check", seed=seed)(inputs, outputs)
        except ptodist.HazardError as e:
            report = str(e)
            break
    else:
        pytest.fail("check mode found no hazard in 20 seeds")
    assert f"ring_programs.py:{read_line}:" in report
    assert f"ring_programs.py:{put_line}:" in report
    assert "unordered read of window data" in report


def test_wrong_argument_count_and_dtype():
    compiled = ptodist.compile(ring_programs.make_ring(64), ranks=2)
    x = np.zeros((2, 4, 64), np.float32)
    with pytest.raises(TypeError, match="takes 2 tensors"):
        compiled(x)
    with pytest.raises(ptodist.RunError, match="dtype"):
        compiled(x.astype(np.int32), x)
