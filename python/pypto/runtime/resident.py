"""Worker-resident memory of a prepared handle (`compiled.prepare()`), PyPTO's raw-pointer API on ptodist.

ptodist's ranks share this process's memory, so an allocation "on a worker" is a torch tensor the
handle keeps; `malloc` pointers are its address. Uploads (`copy_to`) and read-backs (`copy_from`) are
memcpy's, done once, as PyPTO's are. The DeviceTensor layer on top is runtime_base.Worker.
"""

import ctypes

import torch


class ResidentMemory:
    """malloc/free and copy_to/copy_from over blocks keyed by (worker_id, address)."""

    def _init_resident(self):
        self._blocks = {}  # (worker_id, address) -> torch tensor holding the memory

    def _find(self, ptr, nbytes, worker_id, what):
        """The block of `worker_id` that holds [ptr, ptr + nbytes)."""
        for (w, base), t in self._blocks.items():
            size = t.numel() * t.element_size()
            if w == worker_id and base <= ptr and ptr + nbytes <= base + size:
                return t
        raise ValueError(f"{what}: 0x{ptr:x} (+{nbytes} bytes) is not memory allocated on worker {worker_id}")

    def _keep(self, tensor, worker_id):
        """Makes `tensor`'s memory a block of `worker_id`; returns its address."""
        self._blocks[(worker_id, tensor.data_ptr())] = tensor
        return tensor.data_ptr()

    def malloc(self, nbytes, *, worker_id=0):
        self._require_open("malloc")
        if not isinstance(nbytes, int) or nbytes <= 0:
            raise ValueError(f"malloc: nbytes must be a positive int, got {nbytes!r}")
        return self._keep(torch.zeros(nbytes, dtype=torch.uint8), worker_id)

    def free(self, ptr, *, worker_id=0):
        self._blocks.pop((worker_id, ptr), None)

    def copy_to(self, dst_dev_ptr, src_host_ptr, nbytes, *, worker_id=0):
        self._require_open("copy_to")
        self._find(dst_dev_ptr, nbytes, worker_id, "copy_to")
        ctypes.memmove(dst_dev_ptr, src_host_ptr, nbytes)

    def copy_from(self, dst_host_ptr, src_dev_ptr, nbytes, *, worker_id=0):
        self._require_open("copy_from")
        self._find(src_dev_ptr, nbytes, worker_id, "copy_from")
        ctypes.memmove(dst_host_ptr, src_dev_ptr, nbytes)

    def committed_device_memory(self, worker_id=0):
        return sum(t.numel() * t.element_size() for (w, _), t in self._blocks.items() if w == worker_id)
