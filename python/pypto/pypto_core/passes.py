"""`pypto.pypto_core.passes` on ptodist: PyPTO's MemoryPlanner enum (include/pypto/ir/transforms/
pass_context.h), which PyPTO's test harness names. ptodist plans on-chip memory itself (docs/passes.md),
so the choice is accepted and changes no result."""

from enum import Enum


class MemoryPlanner(Enum):
    """Who plans on-chip buffer memory in PyPTO: its own passes, ptoas, or its DSA-RP planner."""

    PYPTO = 0
    PTOAS = 1
    DSA_RP = 2


__all__ = ["MemoryPlanner"]
