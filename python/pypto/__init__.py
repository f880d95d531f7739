"""`pypto` on ptodist: PyPTO's Python API (language, ir.compile, runtime) over ptodist's C++ compiler and
in-process runtime (docs/python.md). Platforms: "ptodist" (fast) and "ptodist-check" (check mode)."""

from . import language  # noqa: F401
