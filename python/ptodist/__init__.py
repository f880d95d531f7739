"""ptodist from Python: compile PyPTO programs defined in Python with ptodist's C++ compiler and run them
on in-process ranks over numpy arrays and torch tensors in place (docs/python.md).

    import pypto.language as pl, ptodist
    @pl.program
    class P: ...
    compiled = ptodist.compile(P, ranks=4, mode="check")
    compiled(inputs, outputs)

The `pypto` package beside this one gives PyPTO's own API (ir.compile, runtime.run) on the same core.
"""

from .errors import CompileError, HangError, HazardError, RunError
from .program import Compiled, Program, RunResult


def compile(program, ranks=2, mode="fast", seed=1, watchdog=10.0, profile="a2a3"):  # noqa: A001
    """Compiles a @pl.program for `ranks` in-process ranks; `mode` is "fast" or "check"."""
    __tracebackhide__ = True
    if not isinstance(program, Program):
        raise TypeError(f"expected a @pl.program class, got {type(program).__name__}")
    try:
        return program.compile(ranks=ranks, mode=mode, seed=seed, watchdog=watchdog, profile=profile)
    except CompileError as e:
        raise e.with_traceback(None) from None


def mpi_rank():
    """This process's rank on the MPI backend (platform "ptodist-mpi"), or -1 before any MPI run."""
    from ._native import core  # noqa: PLC0415

    return core.mpi_rank()


__all__ = [
    "mpi_rank", "compile", "Program", "Compiled", "RunResult", "CompileError", "RunError", "HazardError", "HangError",
]
