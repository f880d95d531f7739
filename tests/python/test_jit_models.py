"""Function-style programs shaped like pypto-lib's models (jit_model.py and its sibling jit_helpers.py):
jit functions imported from another file, each file's own constants, a dataclass config, bind_dynamic,
and an @pl.jit.incore without a return annotation that returns two values."""

import pytest
import torch
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import RunConfig

import jit_helpers
import jit_model


def test_gather_over_two_files_matches_numpy_formula():
    config = RunConfig(distributed_config=DistributedConfig(device_ids=[0, 1]))
    x = torch.randn(2, 3, jit_model.COLS)
    out = torch.zeros(2, 6, jit_model.COLS)
    compiled = jit_model.gather_host.compile(x, out, config=config)
    compiled(x, out)
    # OFFSET of jit_model.py (10.0) in the gather, then OFFSET of jit_helpers.py (1.0) in add_offset
    expected = x.reshape(6, jit_model.COLS) + jit_model.OFFSET + jit_helpers.OFFSET
    assert torch.allclose(out[0], expected) and torch.allclose(out[1], expected)


def test_dynamic_rows_take_the_callers_extent():
    config = RunConfig(distributed_config=DistributedConfig(device_ids=[0, 1]))
    x = torch.randn(2, 5, jit_model.COLS)
    out = torch.zeros(2, 10, jit_model.COLS)
    jit_model.gather_host.compile(x, out, config=config)(x, out)
    assert torch.allclose(out[1], x.reshape(10, jit_model.COLS) + 11.0)


def test_the_program_holds_the_functions_reached_across_files():
    program = jit_model.gather_host.program()
    assert [m.path for m in program.modules] == [jit_helpers.__file__]
    assert program.capture.jit_imports == [("jit_helpers", "add_offset", "add_offset"),
                                           ("jit_helpers", "group_barrier", "group_barrier")]
    assert program.modules[0].names["OFFSET"] == 1.0 and program.capture.names["OFFSET"] == 10.0


def test_a_kernel_error_in_the_sibling_file_points_there(tmp_path, monkeypatch):
    (tmp_path / "bad_helper.py").write_text(
        "import pypto.language as pl\n\n\n"
        "@pl.jit.incore\n"
        "def bad(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):\n"
        "    t = pl.lod(x, [0, 0], [1, 8])\n"
        "    return pl.store(t, [0, 0], y)\n"
    )
    (tmp_path / "uses_bad.py").write_text(
        "import pypto.language as pl\n\nfrom bad_helper import bad\n\n\n"
        "@pl.jit\n"
        "def chip(x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]):\n"
        "    return bad(x, y)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import ptodist  # noqa: PLC0415
    import uses_bad  # noqa: PLC0415

    with pytest.raises(ptodist.CompileError) as e:
        uses_bad.chip.program().compile(ranks=1)
    assert f"{tmp_path / 'bad_helper.py'}:6:9: error: unknown op 'pl.lod'" in str(e.value)


def test_a_function_named_only_through_self_is_not_reached(tmp_path, monkeypatch):
    # PyPTO's jit finds its callees by the names it calls; pypto-lib's moe.py adds an `if False:` call
    # for the one it passes as self.<name> to pl.spmd_submit. Without it, a located error says so.
    (tmp_path / "self_only.py").write_text(
        "import pypto.language as pl\n\n\n"
        "@pl.jit.incore\n"
        "def add_one(y: pl.InOut[pl.Tensor[[4, 8], pl.FP32]]):\n"
        "    i = pl.tile.get_block_idx()\n"
        "    return pl.store(pl.add(pl.load(y, [i, 0], [1, 8]), 1.0), [i, 0], y)\n\n\n"
        "@pl.jit\n"
        "def chip(y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):\n"
        "    y, tid = pl.spmd_submit(self.add_one, y, core_num=4)\n"
        "    return y\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import ptodist  # noqa: PLC0415
    import self_only  # noqa: PLC0415

    with pytest.raises(ptodist.CompileError) as e:
        self_only.chip.program().compile(ranks=1)
    assert (f"{tmp_path / 'self_only.py'}:12:29: error: program has no function 'add_one'; a @pl.jit program "
            "holds the jit functions its functions call by name (an 'if False:' call of it is enough)") in str(e.value)
