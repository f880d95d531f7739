"""`pypto.runtime` on ptodist: run(), RunConfig, benchmark()."""

from .bench import BenchmarkStats, benchmark
from .device_tensor import DeviceTensor, StackedDeviceTensor
from .distributed_runner import DistributedRunHandle, DistributedWorker, execute_distributed
from .runner import RunConfig, RunResult, execute_compiled, run
from .runtime_base import Worker
from .tensor_spec import ScalarSpec, TensorSpec
from .worker import RegistrationHandle

__all__ = [
    "run",
    "RunConfig",
    "RunResult",
    "benchmark",
    "BenchmarkStats",
    "execute_compiled",
    "execute_distributed",
    "DistributedWorker",
    "DistributedRunHandle",
    "RegistrationHandle",
    "Worker",
    "DeviceTensor",
    "StackedDeviceTensor",
    "TensorSpec",
    "ScalarSpec",
]
