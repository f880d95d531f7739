"""`pypto.runtime.DeviceTensor` and `StackedDeviceTensor` on ptodist.

In PyPTO a DeviceTensor names a buffer resident on a worker (uploaded once, reused across dispatches).
ptodist's ranks run in this process, so "device" memory is host memory the prepared worker owns: a
DeviceTensor's `buffer` holds that torch tensor, and passing the DeviceTensor as a program argument
hands the runtime its address (no copy, no upload per dispatch). A StackedDeviceTensor's shards are
views of one dense `[B, *tail]` tensor, so the stack passes by address as a whole.
"""

from dataclasses import dataclass, field
from typing import Any

import torch


class ResidentBuffer:
    """The memory behind a DeviceTensor: `base` (its address) and `tensor(shape, dtype)` (a view)."""

    def __init__(self, tensor):
        self._tensor = tensor
        self.base = tensor.data_ptr()

    def tensor(self, shapes=None, dtype=None):
        t = self._tensor if dtype is None else self._tensor.view(dtype)
        return t if shapes is None else t.reshape(tuple(shapes))


@dataclass(frozen=True)
class DeviceTensor:
    """A buffer resident on a prepared worker: `data_ptr`, `shape`, `dtype` (a torch dtype)."""

    data_ptr: int
    shape: tuple
    dtype: Any
    buffer: Any = field(default=None, repr=False, compare=False, hash=False)

    def __init__(self, data_ptr, shape, dtype, *, buffer=None):
        if isinstance(data_ptr, bool) or not isinstance(data_ptr, int) or data_ptr <= 0:
            raise ValueError(f"DeviceTensor.data_ptr must be a positive int, got {data_ptr!r}")
        dims = tuple(shape)
        if any(isinstance(d, bool) or not isinstance(d, int) for d in dims):
            raise TypeError(f"DeviceTensor.shape must contain ints, got {dims!r}")
        if not dims:
            raise ValueError("DeviceTensor.shape must be non-empty")
        if any(d <= 0 for d in dims):
            raise ValueError(f"DeviceTensor.shape must be all positive, got {dims}")
        if not isinstance(dtype, torch.dtype):
            raise TypeError(f"DeviceTensor.dtype must be torch.dtype, got {type(dtype).__name__}")
        if buffer is not None and int(getattr(buffer, "base", -1)) != data_ptr:
            raise ValueError(f"DeviceTensor.buffer.base does not match data_ptr (0x{data_ptr:x})")
        object.__setattr__(self, "data_ptr", data_ptr)
        object.__setattr__(self, "shape", dims)
        object.__setattr__(self, "dtype", dtype)
        object.__setattr__(self, "buffer", buffer)

    @property
    def nbytes(self):
        n = torch.tensor([], dtype=self.dtype).element_size()
        for d in self.shape:
            n *= d
        return n

    def host_tensor(self):
        """The torch tensor over this buffer (ptodist: the memory the runtime reads and writes)."""
        if self.buffer is None:
            raise TypeError(
                "this DeviceTensor was not made by alloc_tensor/alloc_stacked_tensor, so ptodist has no memory "
                "behind it; allocate it through the prepared worker"
            )
        return self.buffer.tensor(self.shape, self.dtype)

    def __repr__(self):
        return f"DeviceTensor(data_ptr=0x{self.data_ptr:x}, shape={self.shape}, dtype={self.dtype})"


@dataclass(frozen=True)
class StackedDeviceTensor:
    """A `[B, *tail]` tensor whose shard i (a DeviceTensor of shape tail) is resident on worker_ids[i]."""

    shards: tuple
    full_shape: tuple
    worker_ids: tuple
    stacked: Any = field(default=None, repr=False, compare=False, hash=False)

    def __init__(self, shards, full_shape, worker_ids, *, stacked=None):
        shards, full, workers = tuple(shards), tuple(full_shape), tuple(worker_ids)
        if len(full) < 2:
            raise ValueError(f"StackedDeviceTensor.full_shape must have rank >= 2, got {full}")
        if full[0] < 1:
            raise ValueError(f"StackedDeviceTensor needs at least one shard in the leading dim, got full_shape {full}")
        if len(shards) != full[0]:
            raise ValueError(f"StackedDeviceTensor expects {full[0]} shards (leading dim of {full}); got {len(shards)}")
        if len(workers) != full[0]:
            raise ValueError(f"StackedDeviceTensor expects {full[0]} worker_ids (one per shard); got {len(workers)}")
        if len(set(workers)) != len(workers):
            raise ValueError(f"StackedDeviceTensor.worker_ids must be distinct, got {workers}")
        for i, shard in enumerate(shards):
            if not isinstance(shard, DeviceTensor):
                raise TypeError(f"shard {i} must be a DeviceTensor, got {type(shard).__name__}")
            if shard.shape != full[1:]:
                raise ValueError(
                    f"shard {i} has shape {shard.shape}; expected per-shard shape {full[1:]} "
                    f"(leading dim dropped from {full})"
                )
        object.__setattr__(self, "shards", shards)
        object.__setattr__(self, "full_shape", full)
        object.__setattr__(self, "worker_ids", workers)
        object.__setattr__(self, "stacked", stacked)

    @property
    def dtype(self):
        return self.shards[0].dtype

    @property
    def shape(self):
        return self.full_shape

    def __getitem__(self, idx):
        return self.shards[idx]

    def __len__(self):
        return len(self.shards)

    def host_tensor(self):
        """The dense `[B, *tail]` tensor the shards are views of (what the runtime is handed)."""
        if self.stacked is None:
            raise TypeError("this StackedDeviceTensor was not made by alloc_stacked_tensor; ptodist has no dense "
                            "memory behind it")
        return self.stacked
