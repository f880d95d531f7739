"""Worker-resident memory of a prepared handle (`compiled.prepare()`), PyPTO's API on ptodist.

ptodist's ranks share this process's memory, so an allocation "on a worker" is a torch tensor the
handle owns; `malloc` pointers are its address. Uploads (`copy_to`, `alloc_tensor(init=)`) and
read-backs (`copy_from`, `copy_stacked_from`) are memcpy's, done once, as PyPTO's are.
"""

import ctypes

import torch

from .device_tensor import DeviceTensor, ResidentBuffer, StackedDeviceTensor


class ResidentMemory:
    """Mixed into DistributedWorker: malloc/free, copy_to/copy_from, alloc_tensor/free_tensor and the
    stacked variants. Allocations are keyed by (worker_id, address) and released at close()."""

    def _init_resident(self):
        self._owned = {}  # (worker_id, address) -> torch tensor

    def _require_open(self, what):
        if self._closed:
            raise RuntimeError(f"DistributedWorker.{what}: the worker is closed")

    def _find(self, ptr, nbytes, worker_id, what):
        """The allocation of `worker_id` that holds [ptr, ptr + nbytes)."""
        for (w, base), t in self._owned.items():
            size = t.numel() * t.element_size()
            if w == worker_id and base <= ptr and ptr + nbytes <= base + size:
                return t
        raise ValueError(f"{what}: 0x{ptr:x} (+{nbytes} bytes) is not memory allocated on worker {worker_id}")

    def malloc(self, nbytes, *, worker_id=0):
        self._require_open("malloc")
        if not isinstance(nbytes, int) or nbytes <= 0:
            raise ValueError(f"malloc: nbytes must be a positive int, got {nbytes!r}")
        t = torch.zeros(nbytes, dtype=torch.uint8)
        self._owned[(worker_id, t.data_ptr())] = t
        return t.data_ptr()

    def free(self, ptr, *, worker_id=0):
        self._owned.pop((worker_id, ptr), None)

    def copy_to(self, dst_dev_ptr, src_host_ptr, nbytes, *, worker_id=0):
        self._require_open("copy_to")
        self._find(dst_dev_ptr, nbytes, worker_id, "copy_to")
        ctypes.memmove(dst_dev_ptr, src_host_ptr, nbytes)

    def copy_from(self, dst_host_ptr, src_dev_ptr, nbytes, *, worker_id=0):
        self._require_open("copy_from")
        self._find(src_dev_ptr, nbytes, worker_id, "copy_from")
        ctypes.memmove(dst_host_ptr, src_dev_ptr, nbytes)

    def alloc_tensor(self, shape, dtype, *, init=None, worker_id=0):
        self._require_open("alloc_tensor")
        shape = tuple(shape)
        if init is not None and (tuple(init.shape) != shape or init.dtype != dtype):
            raise ValueError(
                f"alloc_tensor: init has shape {tuple(init.shape)} and dtype {init.dtype}; expected {shape} and {dtype}"
            )
        t = torch.zeros(shape, dtype=dtype) if init is None else init.detach().to("cpu").clone().contiguous()
        self._owned[(worker_id, t.data_ptr())] = t
        return DeviceTensor(t.data_ptr(), shape, dtype, buffer=ResidentBuffer(t))

    def free_tensor(self, t, *, worker_id=0):
        self.free(t.data_ptr, worker_id=worker_id)

    def alloc_stacked_tensor(self, host, *, worker_ids=None):
        self._require_open("alloc_stacked_tensor")
        if host.dim() < 2:
            raise ValueError(f"alloc_stacked_tensor: host must have rank >= 2, got shape {tuple(host.shape)}")
        workers = tuple(range(host.shape[0])) if worker_ids is None else tuple(worker_ids)
        stacked = host.detach().clone().contiguous()  # one dense block: the runtime takes it by address
        shards = []
        for i, w in enumerate(workers):
            view = stacked[i]
            self._owned[(w, view.data_ptr())] = view
            shards.append(DeviceTensor(view.data_ptr(), tuple(view.shape), view.dtype, buffer=ResidentBuffer(view)))
        return StackedDeviceTensor(shards, tuple(stacked.shape), workers, stacked=stacked)

    def free_stacked_tensor(self, stacked):
        for shard, w in zip(stacked.shards, stacked.worker_ids):
            self.free_tensor(shard, worker_id=w)

    def copy_stacked_from(self, stacked, host):
        self._require_open("copy_stacked_from")
        host.copy_(stacked.host_tensor())

    def committed_device_memory(self, worker_id=0):
        return sum(t.numel() * t.element_size() for (w, _), t in self._owned.items() if w == worker_id)
