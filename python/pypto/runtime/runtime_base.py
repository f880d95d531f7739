"""`pypto.runtime.Worker` on ptodist: the DeviceTensor lifecycle every prepared handle shares.

As in PyPTO, `alloc_tensor` tracks each DeviceTensor in `_owned_tensors`, keyed by (worker_id,
data_ptr), until `free_tensor` releases it or `close()` reclaims what the caller forgot; a stale handle
or the wrong worker_id is an error rather than a silent no-op. Subclasses provide `run`, `register`
and `_require_open` (which raises once the handle is closed).
"""

import torch

from .device_tensor import DeviceTensor, ResidentBuffer, StackedDeviceTensor
from .resident import ResidentMemory


class Worker(ResidentMemory):
    def __init__(self):
        self._init_resident()
        self._owned_tensors = {}  # (worker_id, data_ptr) -> DeviceTensor

    def run(self, compiled, *args, config=None):
        raise NotImplementedError

    def register(self, compiled):
        raise NotImplementedError

    def alloc_tensor(self, shape, dtype, *, init=None, worker_id=0):
        """A worker-resident buffer of `shape` and `dtype`, zeroed or a copy of `init`."""
        self._require_open("alloc_tensor")
        shape = tuple(shape)
        if init is not None and (tuple(init.shape) != shape or init.dtype != dtype):
            raise ValueError(
                f"alloc_tensor: init has shape {tuple(init.shape)} and dtype {init.dtype}; expected {shape} and {dtype}"
            )
        t = torch.zeros(shape, dtype=dtype) if init is None else init.detach().to("cpu").clone().contiguous()
        device = DeviceTensor(self._keep(t, worker_id), shape, dtype, buffer=ResidentBuffer(t))
        self._owned_tensors[(worker_id, device.data_ptr)] = device
        return device

    def free_tensor(self, t, *, worker_id=0):
        """Releases `t`; a second free is a no-op, a free against the wrong worker or of a stale
        handle (its address now belongs to a newer allocation) a ValueError."""
        key = (worker_id, t.data_ptr)
        if key not in self._owned_tensors:
            owners = sorted(w for w, ptr in self._owned_tensors if ptr == t.data_ptr)
            if owners:
                raise ValueError(
                    f"free_tensor(..., worker_id={worker_id}) does not match the owning worker for "
                    f"ptr=0x{t.data_ptr:x} (allocated on worker(s) {owners}); pass the same worker_id."
                )
            return
        if self._owned_tensors[key] is not t:
            raise ValueError(
                f"free_tensor(..., worker_id={worker_id}) received a stale DeviceTensor for "
                f"ptr=0x{t.data_ptr:x}; that address now belongs to a newer allocation."
            )
        self.free(t.data_ptr, worker_id=worker_id)
        del self._owned_tensors[key]

    def _close_owned_tensors(self):
        """Releases every DeviceTensor the caller did not free (called by close())."""
        owned, self._owned_tensors = self._owned_tensors, {}
        for worker_id, ptr in owned:
            self.free(ptr, worker_id=worker_id)

    def alloc_stacked_tensor(self, host, *, worker_ids=None):
        """Shard i of `host` ([B, *tail]) resident on worker_ids[i]; the shards are views of one dense
        copy, so the stack passes to the runtime by address as a whole."""
        self._require_open("alloc_stacked_tensor")
        if host.dim() < 2:
            raise ValueError(f"alloc_stacked_tensor: host must have rank >= 2, got shape {tuple(host.shape)}")
        workers = tuple(range(host.shape[0])) if worker_ids is None else tuple(worker_ids)
        stacked = host.detach().clone().contiguous()
        shards = []
        for i, w in enumerate(workers):
            view = stacked[i]
            shard = DeviceTensor(self._keep(view, w), tuple(view.shape), view.dtype, buffer=ResidentBuffer(view))
            self._owned_tensors[(w, shard.data_ptr)] = shard
            shards.append(shard)
        return StackedDeviceTensor(shards, tuple(stacked.shape), workers, stacked=stacked)

    def free_stacked_tensor(self, stacked):
        for shard, w in zip(stacked.shards, stacked.worker_ids):
            self.free_tensor(shard, worker_id=w)

    def copy_stacked_from(self, stacked, host):
        self._require_open("copy_stacked_from")
        host.copy_(stacked.host_tensor())
