"""SubWorker methods from the Python entry point: run between the chip tasks, on the caller's tensors,
with their exceptions raised as they are; abstract ones bound through prepare(callbacks=...)."""

import os
import subprocess
from pathlib import Path

import pytest
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime.distributed_runner import _tensor_from_continuous

import sub_worker_programs as progs


@pytest.mark.parametrize("platform", ["ptodist", "ptodist-check"])
def test_sub_worker_runs_between_chip_tasks(platform):
    compiled = ir.compile(progs.ScaleThenShift, platform=platform, distributed_config=DistributedConfig(device_ids=[0]))
    x = torch.arange(1, progs.N + 1, dtype=torch.float32).reshape(1, progs.N)
    doubled, out = torch.zeros(1, progs.N), torch.zeros(1, progs.N)
    for _ in range(2):  # the compiled runtime is kept: a second round must give the same result
        out.zero_()
        compiled(x, doubled, out)
        assert torch.equal(doubled, 2 * x)
        assert torch.equal(out, 3 * x + 1)  # (2x + 1) + x


def test_sub_worker_exception_is_raised_as_is():
    compiled = ir.compile(progs.Checked, distributed_config=DistributedConfig(device_ids=[0]))
    y = torch.zeros(1, progs.N)
    compiled(torch.full((1, progs.N), 3.0), y)
    assert torch.equal(y, torch.full((1, progs.N), 3.0))
    with pytest.raises(AssertionError, match="value above ten: 11.0"):
        compiled(torch.full((1, progs.N), 11.0), y)


def test_abstract_sub_worker_needs_a_callback():
    compiled = ir.compile(progs.Abstract, distributed_config=DistributedConfig(device_ids=[0]))
    x, y, picked = torch.randn(1, progs.N), torch.zeros(1, progs.N), torch.zeros(1, progs.N)
    with pytest.raises(RuntimeError, match="runtime-bound callback with no default implementation"):
        compiled(x, y, picked)
    with pytest.raises(ValueError, match="must be supplied via callbacks"):
        compiled.prepare()
    with pytest.raises(ValueError, match="not sub-workers of this program"):
        compiled.prepare(callbacks={"sample": lambda args: None, "other": lambda args: None})
    with pytest.raises(TypeError, match="single positional"):
        compiled.prepare(callbacks={"sample": lambda: None})

    seen = []

    def sample(args):
        src, dst = (_tensor_from_continuous(a) for a in args)
        seen.append(src.data_ptr())
        dst[:] = src.flip(1)

    with compiled.prepare(callbacks={"sample": sample}) as rt:
        rt(x, y, picked)
    assert seen == [y.data_ptr()]  # the callback saw the caller's own buffer, not a copy
    assert torch.equal(picked, x.flip(1))


def test_command_line_points_at_the_python_entry_point():
    build = Path(os.environ.get("PTODIST_BUILD_DIR", Path(__file__).resolve().parents[2] / "build"))
    r = subprocess.run([str(build / "ptodist"), "check", progs.__file__], capture_output=True, text=True)
    assert r.returncode == 1
    assert "run the program from Python instead" in r.stderr
    assert "runs SubWorker methods between the chip tasks" in r.stderr
