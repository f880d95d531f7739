"""`pypto.backend` on ptodist: PyPTO's backend selection, as test code imports it.

ptodist compiles for one chip profile (a2a3, docs/runtime.md), so the backend type only records what the
caller chose; PyPTO's rule that a configured backend cannot change to another is kept.
"""

from enum import Enum


class BackendType(Enum):
    """PyPTO's code-generation backends (`pypto_core.backend.BackendType`, same members and values)."""

    Ascend910B = 0
    Ascend950 = 1


_configured = None


def set_backend_type(backend_type):
    """Sets the global backend type; idempotent, a ValueError on a change to another type (as PyPTO)."""
    global _configured
    if not isinstance(backend_type, BackendType):
        raise TypeError(f"set_backend_type expects a BackendType, got {type(backend_type).__name__}")
    if _configured is not None and _configured is not backend_type:
        raise ValueError(
            f"backend type already set to {_configured.name}; cannot change it to {backend_type.name}"
        )
    _configured = backend_type


def get_backend_type():
    """The configured backend type; a ValueError before set_backend_type()."""
    if _configured is None:
        raise ValueError("backend type has not been configured; call set_backend_type() first")
    return _configured


def is_backend_configured():
    return _configured is not None


def reset_for_testing():
    """Forgets the configured backend type (PyPTO: tests only)."""
    global _configured
    _configured = None


__all__ = ["BackendType", "set_backend_type", "get_backend_type", "is_backend_configured", "reset_for_testing"]
