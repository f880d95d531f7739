"""PyPTO's system-test runner on ptodist: `test_runner.run(SomeTestCase(...))` for PyPTO's single-device
tests (tests/st/runtime, tests/st/examples), which are written against PyPTO's harness
(tests/st/harness/core/harness.py: PTOTestCase, TensorSpec) and run here unchanged (docs/python.md).

The plugin (pytest_plugin.py) installs this module as `harness.core.test_runner`, the module PyPTO's
harness package imports its TestRunner from; PyPTO's own drives its device pipeline. A run does what
PyPTO's inline path does, on one in-process rank instead of a device:

1. `get_program()`, compiled by `pypto.ir.compile` for the session's platform;
2. the tensors made from the case's TensorSpecs as PyPTO makes them (`init_value`: a tensor, a scalar, a
   callable; else zeros), the golden computed by `compute_expected` on copies of them;
3. the program run over the tensors in place, its tensors passed in TensorSpec order;
4. each output compared with its golden as PyPTO's `validate_golden` does (`torch.isclose` with the case
   config's rtol/atol, NaN in the golden = don't care).

Every failure is a failed RunResult whose `error` says why (a compile error is ptodist's located report),
never an exception out of `run`.
"""

import time
import traceback
from pathlib import Path

# PyPTO's platforms for the a5 chip, which ptodist does not model (it runs the a2a3 profile).
_A5_PLATFORMS = ("a5", "a5sim")


def _run_config():
    from pypto.runtime.runner import RunConfig  # noqa: PLC0415

    return RunConfig()


def _result(**fields):
    from pypto.runtime.runner import RunResult  # noqa: PLC0415

    return RunResult(**fields)


def validate_golden(outputs, golden, rtol=1e-5, atol=1e-5):
    """PyPTO's comparison (runtime/device_runner.py validate_golden): every output close to its golden
    within rtol/atol, where the golden is not NaN; an AssertionError naming the first mismatches."""
    import torch  # noqa: PLC0415
    for name, actual_tensor in outputs.items():
        actual = actual_tensor.cpu()
        expected = golden[name].cpu()
        care_mask = ~torch.isnan(expected)
        close_mask = torch.isclose(actual, expected, rtol=rtol, atol=atol) | ~care_mask
        if bool(close_mask.all()):
            continue
        mismatch_indices = torch.where(~close_mask.flatten())[0]
        flat_actual, flat_expected = actual.flatten(), expected.flatten()
        n_show = min(20, mismatch_indices.numel())
        lines = [
            f"    [{i.item()}] actual={flat_actual[i].item()}, expected={flat_expected[i].item()}"
            for i in mismatch_indices[:n_show]
        ]
        n_dont_care = int((~care_mask).sum().item())
        skipped = f" ({n_dont_care} don't-care skipped)" if n_dont_care else ""
        raise AssertionError(
            f"Output '{name}' does not match golden.\n"
            f"Mismatched elements: {mismatch_indices.numel()}/{actual.numel()}{skipped}\n"
            f"rtol={rtol}, atol={atol}\n"
            f"First {n_show} mismatches:\n" + "\n".join(lines)
        )


def make_tensors(test_case):
    """The case's tensors by name, in TensorSpec order, made as PyPTO's runtime TensorSpec makes them."""
    from pypto.runtime.tensor_spec import TensorSpec  # noqa: PLC0415

    return {
        spec.name: TensorSpec(spec.name, spec.shape, spec.dtype.torch_dtype, spec.init_value, spec.is_output).create_tensor()
        for spec in test_case.tensor_specs
    }


class TestRunner:
    """Runs PyPTO test cases (PTOTestCase) on ptodist; `config` is the session's RunConfig (its `platform`
    is ptodist's: "ptodist" or "ptodist-check")."""

    __test__ = False  # Not a pytest test class

    def __init__(self, config=None):
        self.config = config or _run_config()

    def run(self, test_case):
        """Compiles, runs and checks `test_case`; returns PyPTO's RunResult."""
        from .errors import CompileError, RunError  # noqa: PLC0415

        start = time.time()
        name = test_case.get_name()
        try:
            error = self._run(test_case)
        except CompileError as e:
            error = str(e)  # the located report, as the compiler wrote it
        except RunError as e:
            error = f"{type(e).__name__}: {e}"
        except Exception as e:  # noqa: BLE001 - a failed result, as PyPTO's runner reports it
            error = f"{type(e).__name__}: {e}\n{traceback.format_exc()}"
        return _result(passed=error is None, test_name=name, error=error, execution_time=time.time() - start)

    def _run(self, test_case):
        """None when the case passed, else why not."""
        from pypto import ir  # noqa: PLC0415

        pinned = test_case.get_platform()
        if pinned in _A5_PLATFORMS:
            return (
                f"test case pinned to PyPTO platform {pinned!r} (Ascend950); ptodist runs the a2a3 chip profile"
            )
        if test_case.scalar_specs:
            names = [s.name for s in test_case.scalar_specs]
            return f"scalar orchestration arguments (define_scalars: {names}) are not supported on ptodist yet"
        program = test_case.get_program()
        if program is None:
            raise ValueError(
                f"Test case {test_case.get_name()} must implement get_program() "
                "to return a @pl.program class or ir.Program"
            )
        compiled = ir.compile(program, output_dir=self._output_dir(test_case), platform=self.config.platform)
        tensors = make_tensors(test_case)
        params = [p[0] for p in compiled._native(compiled._mode).params]
        if len(params) != len(tensors):
            # PyPTO passes the TensorSpecs in order as the orchestration's arguments: one each.
            return (
                f"program {program.name!r} takes {len(params)} tensors {params}; "
                f"the test case defines {len(tensors)} TensorSpecs {list(tensors)}"
            )
        golden = {k: v.clone() for k, v in tensors.items()}
        test_case.compute_expected(golden)
        if self.config.codegen_only:
            return None
        compiled(*tensors.values())
        outputs = {s.name: tensors[s.name] for s in test_case.tensor_specs if s.is_output}
        try:
            validate_golden(outputs, golden, rtol=test_case.config.rtol, atol=test_case.config.atol)
        except AssertionError as e:
            return f"golden validation failed (rtol={test_case.config.rtol}, atol={test_case.config.atol}):\n{e}"
        return None

    def _output_dir(self, test_case):
        # None: ir.compile's default, under $PYPTO_PROG_BUILD_DIR (the plugin points it at the test's tmp dir).
        if self.config.save_kernels and self.config.save_kernels_dir:
            return Path(self.config.save_kernels_dir) / test_case.get_name()
        return None


class TestSuite:
    """PyPTO's collection of test cases run together (harness/core/test_runner.py TestSuite)."""

    __test__ = False  # Not a pytest test class

    def __init__(self, name, config=None):
        self.name = name
        self.config = config or _run_config()
        self._test_cases = []

    def add_test(self, test_case):
        self._test_cases.append(test_case)
        return self

    def run_all(self, runner=None):
        runner = runner or TestRunner(self.config)
        results = {}
        for test_case in self._test_cases:
            result = runner.run(test_case)
            results[test_case.get_name()] = result
            print(result)
        return results

    def summary(self, results):
        passed = sum(1 for r in results.values() if r.passed)
        total = len(results)
        failed = total - passed
        lines = [f"\n{'=' * 50}", f"Test Suite: {self.name}", f"{'=' * 50}", f"Passed: {passed}/{total}",
                 f"Failed: {failed}/{total}"]
        if failed:
            lines.append("\nFailed tests:")
            lines += [f"  - {name}: {r.error}" for name, r in results.items() if not r.passed]
        return "\n".join(lines)
