"""ptodist's st runner (ptodist/st_runner.py), the `test_runner` fixture PyPTO's single-device system
tests use: tensors made from TensorSpecs, the golden from compute_expected, the comparison with the
config's tolerances, and every failure (a wrong result, a compile error, what ptodist cannot run) a
failed RunResult whose `error` says why. A PTOTestCase of our own (st_harness.py) stands in for PyPTO's."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pypto.language as pl
import pytest
import torch
from pypto.runtime.runner import RunConfig, RunResult
from pypto.runtime.tensor_spec import ScalarSpec
from st_harness import DataType, PTOTestCase, TensorSpec

from ptodist import st_runner

HERE = Path(__file__).resolve().parent
M, N = 16, 16


@pl.program
class TileAdd:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        a: pl.Tensor[[M, N], pl.FP32],
        b: pl.Tensor[[M, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        ta = pl.load(a, [0, 0], [M, N])
        tb = pl.load(b, [0, 0], [M, N])
        out = pl.store(pl.tile.add(ta, tb), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        a: pl.Tensor[[M, N], pl.FP32],
        b: pl.Tensor[[M, N], pl.FP32],
        out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        out = self.kernel(a, b, out)
        return out


class AddCase(PTOTestCase):
    """out = a + b (+ `skew`, which the kernel does not add: a golden off by that much)."""

    def __init__(self, init_a=torch.randn, init_b=2.0, skew=0.0, **kwargs):
        super().__init__(**kwargs)
        self.init_a, self.init_b, self.skew = init_a, init_b, skew

    def get_name(self):
        return "tile_add"

    def define_tensors(self):
        return [
            TensorSpec("a", [M, N], DataType.FP32, init_value=self.init_a),
            TensorSpec("b", [M, N], DataType.FP32, init_value=self.init_b),
            TensorSpec("out", [M, N], DataType.FP32, is_output=True),
        ]

    def get_program(self):
        return TileAdd

    def compute_expected(self, tensors, params=None):
        tensors["out"][:] = tensors["a"] + tensors["b"] + self.skew


class TypoCase(AddCase):
    def get_program(self):
        @pl.program
        class Typo:
            @pl.function(type=pl.FunctionType.InCore)
            def kernel(
                self,
                a: pl.Tensor[[M, N], pl.FP32],
                out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
            ) -> pl.Tensor[[M, N], pl.FP32]:
                t = pl.lod(a, [0, 0], [M, N])
                out = pl.store(t, [0, 0], out)
                return out

            @pl.function(type=pl.FunctionType.Orchestration)
            def orchestrator(
                self,
                a: pl.Tensor[[M, N], pl.FP32],
                out: pl.Out[pl.Tensor[[M, N], pl.FP32]],
            ) -> pl.Tensor[[M, N], pl.FP32]:
                out = self.kernel(a, out)
                return out

        return Typo


@pytest.mark.parametrize(
    "init_a",
    [torch.arange(M * N, dtype=torch.float32).reshape(M, N), 1.5, torch.randn, lambda: torch.ones(M, N) * 3, None],
    ids=["tensor", "scalar", "randn", "callable", "zeros"],
)
def test_inputs_from_every_kind_of_init_value(test_runner, init_a):
    result = test_runner.run(AddCase(init_a=init_a))
    assert isinstance(result, RunResult)
    assert result.passed, result.error
    assert result.test_name == "tile_add" and result.error is None


def test_a_wrong_golden_fails_with_the_mismatches(test_runner):
    result = test_runner.run(AddCase(skew=1.0))
    assert not result.passed
    assert "Output 'out' does not match golden" in result.error
    assert f"Mismatched elements: {M * N}/{M * N}" in result.error
    assert "rtol=1e-05, atol=1e-05" in result.error


def test_the_config_tolerances_decide(test_runner):
    assert not test_runner.run(AddCase(skew=1e-3)).passed
    assert test_runner.run(AddCase(skew=1e-3, config=RunConfig(rtol=1e-2, atol=1e-2))).passed


def test_nan_in_the_golden_is_dont_care(test_runner):
    class HalfDontCare(AddCase):
        def compute_expected(self, tensors, params=None):
            tensors["out"][:] = tensors["a"] + tensors["b"]
            tensors["out"][: M // 2] = float("nan")

    assert test_runner.run(HalfDontCare()).passed


def test_a_compile_error_is_a_failed_result_with_the_located_report(test_runner):
    result = test_runner.run(TypoCase())
    assert not result.passed
    first = result.error.splitlines()[0]
    assert first.startswith(f"{__file__}:") and "error: unknown op 'pl.lod'" in first, result.error
    assert "pl.lod(a, [0, 0], [M, N])" in result.error


def test_what_ptodist_cannot_run_is_a_failed_result(test_runner):
    a5 = test_runner.run(AddCase(platform="a5sim"))
    assert not a5.passed and "ptodist runs the a2a3 chip profile" in a5.error

    class WithScalar(AddCase):
        def define_scalars(self):
            return [ScalarSpec("alpha", 2, "int32")]

    scalar = test_runner.run(WithScalar())
    assert not scalar.passed and "define_scalars: ['alpha']" in scalar.error

    class MissingOutput(AddCase):
        def define_tensors(self):
            return super().define_tensors()[:2]

        def compute_expected(self, tensors, params=None):
            pass

    missing = test_runner.run(MissingOutput())
    assert not missing.passed and "program 'TileAdd' takes 3 tensors ['a', 'b', 'out']; the test case defines 2" in missing.error


def test_check_mode_and_codegen_only():
    assert st_runner.TestRunner(RunConfig(platform="ptodist-check")).run(AddCase()).passed
    codegen = st_runner.TestRunner(RunConfig(codegen_only=True))
    assert codegen.run(AddCase(skew=1.0)).passed  # compiled, golden computed, not run
    assert not codegen.run(TypoCase()).passed


def test_the_runner_stands_in_for_pyptos_module():
    assert sys.modules["harness.core.test_runner"] is st_runner


# A tests/st tree shaped like PyPTO's: its harness package (here ours, st_harness.py) imports the
# runner from harness.core.test_runner, and the test file parametrises `platform` as PyPTO's do.
_ST_TEST = '''
import pytest
import pypto.language as pl
from harness.core.harness import DataType, PTOTestCase, TensorSpec

PLATFORMS = [pytest.param(p, id=p) for p in ("a2a3sim", "a5sim", "a2a3", "a5")]
SIM_PLATFORMS = [pytest.param(p, id=p) for p in ("a2a3sim", "a5sim")]


@pl.program
class Double:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t = pl.load(a, [0, 0], [8, 8])
        out = pl.store(pl.tile.add(t, t), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        out = self.kernel(a, out)
        return out


class DoubleCase(PTOTestCase):
    def get_name(self):
        return "double"

    def define_tensors(self):
        return [TensorSpec("a", [8, 8], DataType.FP32, init_value=3.0), TensorSpec("out", [8, 8], DataType.FP32, is_output=True)]

    def get_program(self):
        return Double

    def compute_expected(self, tensors, params=None):
        tensors["out"][:] = tensors["a"] * 2


@pytest.mark.parametrize("platform", PLATFORMS)
def test_double(test_runner, platform):
    result = test_runner.run(DoubleCase(platform=platform))
    assert result.passed, result.error


@pytest.mark.parametrize("platform", SIM_PLATFORMS)
def test_double_sim(test_runner, platform):
    assert platform == "a2a3sim"
    assert test_runner.run(DoubleCase(platform=platform)).passed


@pytest.mark.platforms("a5")
def test_a5_only():
    raise AssertionError("a test for a5 only must be deselected")
'''


def test_a_pypto_st_tree_runs_with_its_harness(tmp_path):
    st = tmp_path / "tests" / "st"
    (st / "harness" / "core").mkdir(parents=True)
    (st / "harness" / "__init__.py").write_text("from harness.core.test_runner import TestRunner, TestSuite\n")
    (st / "harness" / "core" / "__init__.py").write_text(
        "from harness.core.harness import PTOTestCase\nfrom harness.core.test_runner import TestRunner\n"
    )
    (st / "harness" / "core" / "harness.py").write_text("from st_harness import DataType, PTOTestCase, TensorSpec\n")
    (st / "runtime" / "ops").mkdir(parents=True)
    test_file = st / "runtime" / "ops" / "test_double.py"
    test_file.write_text(textwrap.dedent(_ST_TEST))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parents[1] / "python"), str(HERE)]))
    p = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "ptodist.pytest_plugin",
         "--noconftest", str(test_file)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    assert "2 passed, 5 deselected" in p.stdout, p.stdout


def test_names_pypto_tests_use_outside_kernels():
    # A jit function's compiled programs are in `_cache`, which PyPTO's tests clear.
    import jit_bare  # noqa: PLC0415

    jit_bare.sum_then_scale._cache.clear()
    # A view in an annotation is evaluated by Python when the function is defined: spelled, not run.
    view = pl.TensorView(valid_shape=[M, N], layout=pl.TensorLayout.ND)
    assert repr(view) == "pl.TensorView(valid_shape=[16, 16], layout=pl.TensorLayout.ND)"
    # pl.INDEX tensors are passed as int64, as in PyPTO.
    from ptodist import buffers  # noqa: PLC0415

    bound = buffers.bind([torch.zeros(4, dtype=torch.int64)], [("vs", "INDEX", [4], "in")])
    assert bound.descriptors[0][1:] == ("INDEX", [4])
    assert buffers.torch_dtype("INDEX") is torch.int64
    # Unsigned ints as signed tensors of the same bits (PyPTO's harness: UINT32 -> torch.int32).
    bound = buffers.bind([torch.zeros(4, dtype=torch.int32)], [("idx", "UINT32", [4], "in")])
    assert bound.descriptors[0][1] == "UINT32" and buffers.torch_dtype("UINT16") is torch.int16
