"""`pypto.language` (`pl`) on ptodist: the decorators, dtypes, types and enums PyPTO programs use.

Kernel bodies are never run by Python: `@pl.program` and `@pl.jit` capture their source and the values
of the names they use, and ptodist's C++ compiler compiles them (ptodist/capture.py). Everything else
here exists so that the user's module evaluates as it does under PyPTO: annotations such as
`pl.Tensor[[M, K], pl.FP16]`, decorator arguments such as `pl.FunctionType.InCore`, host arithmetic
such as `SIZE * pl.FP32.get_byte()`.
"""

import sys as _sys

from ._spelled import DTYPES as _DTYPES
from ._spelled import Call as _Call
from ._spelled import DType as _DType
from ._spelled import Spelled as _Spelled
from .decorators import function, inline, jit, program

for _name, _nbytes in _DTYPES.items():
    globals()[_name] = _DType(_name, _nbytes)


def dynamic(*args, **kwargs):
    """A dimension bound at run time (`pl.dynamic("NR")`), spelled for the compiler."""
    return _Call("pl.dynamic", args, kwargs)


def TensorView(*args, **kwargs):  # noqa: N802 - PyPTO's name
    """A tensor type's view (`pl.Tensor[[M, N], pl.FP32, pl.TensorView(valid_shape=[...])]`): annotations
    are evaluated by Python when a function is defined, so it is spelled for the compiler, not run."""
    return _Call("pl.TensorView", args, kwargs)


def TileView(*args, **kwargs):  # noqa: N802 - PyPTO's name
    """A tile type's view (`pl.Tile[[M, N], pl.FP32, pl.TileView(...)]`), spelled as TensorView is."""
    return _Call("pl.TileView", args, kwargs)


def __getattr__(name):
    # Types (pl.Tensor, pl.Out), enums (pl.FunctionType.InCore) and ops (pl.load) by their spelling.
    if name.startswith("__"):
        raise AttributeError(name)
    return _Spelled(f"pl.{name}")


from . import distributed  # noqa: E402

__all__ = ["program", "function", "jit", "inline", "dynamic", *list(_DTYPES)]
del _sys
