"""`pypto.ir.pass_manager` on ptodist: PyPTO's strategy and dump-level enums, as test code imports them.

ptodist runs its own pass pipeline (docs/passes.md) whatever the strategy; the enums exist so that PyPTO's
test harness and test cases, which name them, import and run unchanged.
"""

from enum import Enum


class OptimizationStrategy(Enum):
    """PyPTO's optimization strategies (one today)."""

    Default = "Default"  # Full tensor-oriented PTO pipeline


class PassDumpLevel(Enum):
    """PyPTO's per-pass dump verbosity (`dump_passes`); ptodist dumps with `--print-after-all`."""

    NONE = 0
    CONCISE = 1
    EXPLICIT = 2


__all__ = ["OptimizationStrategy", "PassDumpLevel"]
