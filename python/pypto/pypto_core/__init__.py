"""`pypto.pypto_core` on ptodist: the names test code imports from PyPTO's C++ extension module.

PyPTO's is its compiler; ptodist's compiler is `_ptodist_core` (ptodist/_native.py), so only the
enums PyPTO's test harness names live here (`passes.MemoryPlanner`).
"""

from . import passes  # noqa: F401
