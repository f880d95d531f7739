"""A PTOTestCase of our own, with the interface of PyPTO's harness (tests/st/harness/core/harness.py:
DataType, TensorSpec, PTOTestCase), for the tests of ptodist's st runner (test_st_runner.py): PyPTO's
harness is PyPTO's test code and is not part of this repository."""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any

import torch
from pypto.runtime.runner import RunConfig


class DataType(Enum):
    FP32 = "fp32"
    FP16 = "fp16"
    INT32 = "int32"

    @property
    def torch_dtype(self):
        return {DataType.FP32: torch.float32, DataType.FP16: torch.float16, DataType.INT32: torch.int32}[self]


@dataclass
class TensorSpec:
    name: str
    shape: list[int]
    dtype: DataType
    init_value: Any = None
    is_output: bool = False


class PTOTestCase(ABC):
    def __init__(self, config=None, *, platform=None):
        self.config = config or RunConfig()
        self._platform = platform
        self._tensor_specs = None

    @abstractmethod
    def get_name(self): ...

    @abstractmethod
    def define_tensors(self): ...

    @abstractmethod
    def get_program(self): ...

    @abstractmethod
    def compute_expected(self, tensors, params=None): ...

    def get_platform(self):
        return self._platform

    def define_scalars(self):
        return []

    @property
    def scalar_specs(self):
        return self.define_scalars()

    @property
    def tensor_specs(self):
        if self._tensor_specs is None:
            self._tensor_specs = self.define_tensors()
        return self._tensor_specs
