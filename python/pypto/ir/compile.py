"""`pypto.ir.compile` on ptodist: the C++ compiler compiles a captured program for the platform's mode."""

import os
import time
from pathlib import Path

import ptodist

from .compiled_program import CompiledProgram
from .distributed_compiled_program import DistributedCompiledProgram


def _default_output_dir(name):
    base = os.environ.get("PYPTO_PROG_BUILD_DIR") or "build_output"
    return Path(base) / f"{name}_{time.strftime('%Y%m%d_%H%M%S')}_{time.monotonic_ns() % 1000000:06d}"


_BUILTIN_CONFIG = """\
# Written by ptodist: the kernel it generated for PyPTO's host built-in {builtin}, as PTO text beside
# this file (PyPTO puts its template C++ here; ptodist lowers the collective onto put/notify/wait).
from pathlib import Path

_ROOT_DIR = Path(__file__).parent

BUILTIN = "{builtin}"
KERNELS = [
    {{"name": "{kernel}", "source": str(_ROOT_DIR / "kernels" / "{kernel}.pto"), "core_type": "aiv"}},
]
"""


def _write_artifacts(compiled, output_dir):
    """Each kernel's PTO text and the manifest; a kernel the PTO emitter cannot express is written down
    (codegen_errors.txt) rather than failing the run, which does not need the PTO text. Where PyPTO
    builds a sub-program, the same folder holds its part: next_levels/<orch>/kernels/ the kernels an L2
    program's chip orchestration reaches, next_levels/<builtin>/ (kernels/ and kernel_config.py) the
    kernel generated for each collective the host orchestrator calls, under PyPTO's built-in name."""
    output_dir.mkdir(parents=True, exist_ok=True)
    native = compiled._native(compiled._mode).native
    errors = []

    def write(directory, kernels=None):
        # Each part on its own: a kernel without a PTO lowering leaves the other parts written.
        try:
            native.write_pto(str(directory), kernels)
            return True
        except ptodist.CompileError as e:
            if str(e) not in errors:
                errors.append(str(e))
            return False

    write(output_dir)
    for orch in native.orchestrations():
        write(output_dir / "next_levels" / orch / "kernels", native.kernels_reached(orch))
    for builtin, kernel in native.builtins():
        variant = output_dir / "next_levels" / builtin
        if write(variant / "kernels", [kernel]):
            (variant / "kernel_config.py").write_text(_BUILTIN_CONFIG.format(builtin=builtin, kernel=kernel))
    if errors:
        (output_dir / "codegen_errors.txt").write_text("\n".join(errors) + "\n")


def compile(  # noqa: A001, PLR0913
    program,
    output_dir=None,
    strategy=None,
    dump_passes=True,
    backend_type=None,
    skip_ptoas=False,
    verification_level=None,
    diagnostic_phase=None,
    disabled_diagnostics=None,
    memory_planner=None,
    enable_pypto_l0c_double_buffer=None,
    profiling=False,
    platform=None,
    distributed_config=None,
    analyze_auto_scopes_for_deps=False,
    emit_source_loc=None,
    dump_ptoas_passes=False,
    runtime=None,
):
    """Compiles `program` (a @pl.program) with ptodist. `platform` is "ptodist" (fast, the default) or
    "ptodist-check"; `distributed_config.device_ids` sets the rank count. Raises ptodist.CompileError
    with the located report."""
    __tracebackhide__ = True
    if not isinstance(program, ptodist.Program):
        raise TypeError(f"ir.compile expects a @pl.program class, got {type(program).__name__}")
    out = Path(output_dir) if output_dir else _default_output_dir(program.name)
    cls = DistributedCompiledProgram if distributed_config is not None else CompiledProgram
    try:
        compiled = cls(program, out, platform=platform, distributed_config=distributed_config)
    except ptodist.CompileError as e:
        raise e.with_traceback(None) from None
    _write_artifacts(compiled, out)
    return compiled
