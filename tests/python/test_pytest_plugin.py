"""ptodist.pytest_plugin: a PyPTO-style test file (fixtures test_config and device_ids, parametrised
n_ranks, a platforms marker) runs under pytest with the plugin, with its own asserts."""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYPTO_STYLE_TEST = '''
import pytest
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig

import ring_programs


class TestRing:
    @pytest.mark.parametrize("n_ranks", [2, 4])
    def test_ring(self, test_config, device_ids, n_ranks):
        if len(device_ids) < n_ranks:
            pytest.skip(f"needs {n_ranks} devices, got {device_ids}")
        compiled = ir.compile(
            ring_programs.make_ring(64),
            platform=test_config.platform,
            distributed_config=DistributedConfig(device_ids=device_ids[:n_ranks]),
        )
        inputs = torch.randn(n_ranks, 4, 64)
        outputs = torch.zeros(n_ranks, 4, 64)
        compiled(inputs, outputs)
        assert torch.equal(outputs, torch.roll(inputs, 1, dims=0))

    def test_platform(self, test_config):
        assert test_config.platform in ("ptodist", "ptodist-check")

    @pytest.mark.platforms("a5", "a5sim")
    def test_only_on_a5(self):
        raise AssertionError("a test for a5 only must be deselected")
'''


def run_pytest(tmp_path, *args):
    (tmp_path / "test_pypto_style.py").write_text(PYPTO_STYLE_TEST)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parents[1] / "python"), str(HERE)]))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "ptodist.pytest_plugin",
         str(tmp_path / "test_pypto_style.py"), *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )


def test_pypto_style_file_passes(tmp_path):
    p = run_pytest(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "3 passed, 1 deselected" in p.stdout


def test_device_option_bounds_the_ranks(tmp_path):
    p = run_pytest(tmp_path, "--device", "0,1", "--platform", "ptodist-check")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 passed, 1 skipped, 1 deselected" in p.stdout


def test_unknown_platform_is_a_usage_error(tmp_path):
    p = run_pytest(tmp_path, "--platform", "a5sim")
    assert p.returncode != 0
    assert "'ptodist' (fast mode), 'ptodist-check' (check mode)" in p.stdout + p.stderr
