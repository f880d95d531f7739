"""`pypto.runtime.tensor_spec` on ptodist: PyPTO's TensorSpec and ScalarSpec, with PyPTO's initialisation
rules (python/pypto/runtime/tensor_spec.py there), which ptodist's test runner uses to make the inputs of
PyPTO's test cases (ptodist/st_runner.py)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch


@dataclass
class TensorSpec:
    """A runtime tensor: name, shape, torch dtype, how it starts (`init_value`), whether it is checked.

    init_value: None -> zeros; an int or float -> every element; a torch.Tensor -> that tensor (cast to
    `dtype`); torch.randn / rand / zeros / ones -> called with (shape, dtype=dtype); any other callable ->
    called with no arguments, its result cast to `dtype`."""

    name: str
    shape: list[int]
    dtype: torch.dtype
    init_value: int | float | torch.Tensor | Callable | None = field(default=None)
    is_output: bool = False

    def create_tensor(self) -> torch.Tensor:
        if self.init_value is None:
            return torch.zeros(self.shape, dtype=self.dtype)
        if isinstance(self.init_value, (int, float)):
            return torch.full(self.shape, self.init_value, dtype=self.dtype)
        if isinstance(self.init_value, torch.Tensor):
            return self.init_value.to(dtype=self.dtype)
        if callable(self.init_value):
            fn = self.init_value
            if fn in (torch.randn, torch.rand, torch.zeros, torch.ones):
                return fn(self.shape, dtype=self.dtype)
            result: Any = fn()
            return torch.as_tensor(result, dtype=self.dtype)
        raise TypeError(f"Unsupported init_value type {type(self.init_value)!r} for tensor {self.name!r}")


# The scalar ctypes PyPTO's golden files name (its SCALAR_CTYPE_MAP).
SCALAR_CTYPE_MAP: dict[str, str] = {
    "int64": "ctypes.c_int64",
    "int32": "ctypes.c_int32",
    "uint64": "ctypes.c_uint64",
    "uint32": "ctypes.c_uint32",
    "float": "ctypes.c_float",
    "double": "ctypes.c_double",
}


@dataclass
class ScalarSpec:
    """A scalar argument of the orchestration function, passed after every tensor argument."""

    name: str
    value: int | float
    ctype: str = "int64"

    def __post_init__(self) -> None:
        if self.ctype not in SCALAR_CTYPE_MAP:
            raise ValueError(
                f"Unsupported ctype {self.ctype!r} for scalar {self.name!r}. Supported: {list(SCALAR_CTYPE_MAP)}"
            )


__all__ = ["TensorSpec", "ScalarSpec", "SCALAR_CTYPE_MAP"]
