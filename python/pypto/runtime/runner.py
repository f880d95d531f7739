"""`pypto.runtime.runner` on ptodist: RunConfig, RunResult, run() and execute_compiled()."""

from dataclasses import dataclass
from typing import Any

from .._platforms import DEFAULT


@dataclass
class RunConfig:
    """PyPTO's run configuration. ptodist reads `platform` ("ptodist" or "ptodist-check"),
    `distributed_config`, and `rtol` / `atol` (PyPTO's defaults), with which its test runner compares a
    test case's outputs with its golden; the device-only fields are accepted and have no effect here."""

    __test__ = False  # Not a pytest test class

    platform: str = DEFAULT
    device_id: int = 0
    rtol: float = 1e-5
    atol: float = 1e-5
    save_kernels: bool = False
    save_kernels_dir: Any = None
    dump_passes: bool = False
    codegen_only: bool = False
    strategy: Any = None
    backend_type: Any = None
    dump_ptoas_passes: bool = False
    diagnostic_phase: Any = None
    disabled_diagnostics: Any = None
    compile_profiling: bool = False
    analyze_auto_scopes_for_deps: bool = False
    memory_planner: Any = None
    distributed_config: Any = None
    enable_chip_swimlane: Any = 0
    enable_dump_args: int = 0
    enable_pmu: int = 0
    enable_dep_gen: bool = False
    enable_scope_stats: bool = False
    ring_task_window: Any = None
    ring_heap: Any = None
    ring_dep_pool: Any = None
    runtime_profiling: bool = False
    golden_data_dir: Any = None
    aicpu_thread_num: Any = None


@dataclass
class RunResult:
    """PyPTO's result of a harness test execution: `passed`, and `error` (the reason) when not."""

    __test__ = False  # Not a pytest test class

    passed: bool
    test_name: str | None = None
    error: str | None = None
    execution_time: float | None = None
    profile: dict[str, Any] | None = None

    def __str__(self) -> str:
        time_str = f" ({self.execution_time:.2f}s)" if self.execution_time else ""
        if self.passed:
            prefix = f"PASS: {self.test_name}" if self.test_name else "PASS"
            return prefix + time_str
        if self.test_name:
            msg = f"FAIL: {self.test_name}" + (f" - {self.error}" if self.error else "")
        else:
            msg = "FAIL" + (f": {self.error}" if self.error else "")
        return msg + time_str


def execute_compiled(compiled, tensors, config=None):
    """Runs a compiled program once over `tensors` (in place)."""
    __tracebackhide__ = True
    return compiled._execute(list(tensors), config)


def run(program, *tensors, config=None):
    """Compiles `program` and, given tensors, runs it once; returns the compiled program."""
    __tracebackhide__ = True
    from pypto import ir  # noqa: PLC0415

    config = config or RunConfig()
    compiled = ir.compile(
        program,
        output_dir=config.save_kernels_dir,
        platform=config.platform,
        distributed_config=config.distributed_config,
    )
    if tensors and not config.codegen_only:
        compiled(*tensors, config=config)
    return compiled
