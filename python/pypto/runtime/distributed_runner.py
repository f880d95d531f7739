"""`pypto.runtime.distributed_runner` on ptodist: one-shot execution and the prepared worker handle."""

import warnings

from ptodist.errors import REPORTS

from .resident import ResidentMemory


def execute_distributed(compiled, tensors, config=None):
    """Runs a compiled distributed program once over host tensors (in place)."""
    __tracebackhide__ = True
    return compiled._execute(list(tensors), config)


class DistributedWorker(ResidentMemory):
    """`compiled.prepare()`: dispatch the same compiled program many times, with worker-resident
    tensors (resident.py) that survive across dispatches."""

    def __init__(  # noqa: PLR0913
        self,
        programs,
        config=None,
        *,
        persistent=False,
        reset_persistent_windows=None,
        callbacks=None,
        sub_worker_overrides=None,
        inherited_host_tensors=(),
        **_options,
    ):
        if not isinstance(programs, (list, tuple)):
            programs = [programs]
        if reset_persistent_windows and not persistent:
            raise ValueError("DistributedWorker reset_persistent_windows=True requires persistent=True")
        self._programs = list(programs)
        self._config = config
        self._closed = False
        self._init_resident()
        self._inherited = tuple(inherited_host_tensors)
        if sub_worker_overrides is not None:
            warnings.warn("sub_worker_overrides is deprecated; use callbacks= instead.", DeprecationWarning, stacklevel=3)
            callbacks = {**sub_worker_overrides, **(callbacks or {})}
        # SubWorker callbacks by program, checked now (unknown names, unbound abstract SubWorkers).
        self._callbacks = [p.program.sub_workers.check_callbacks(callbacks) for p in self._programs]
        # Windows keep their contents between dispatches only when asked not to reset them.
        self._keep_windows = persistent and reset_persistent_windows is False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        self._closed = True
        self._owned.clear()

    def release_inherited_host_tensor_refs(self):
        self._require_open("release_inherited_host_tensor_refs")
        self._inherited = ()

    def submit(self, compiled, *tensors, config=None):
        """Runs `compiled` now (ptodist's dispatch is synchronous) and returns a completed handle."""
        __tracebackhide__ = True
        self.run(compiled, *tensors, config=config)
        return DistributedRunHandle()

    def __call__(self, *tensors, config=None):
        __tracebackhide__ = True
        return self.run(self._programs[0], *tensors, config=config)

    def run(self, program, *tensors, config=None):
        __tracebackhide__ = True
        if self._closed:
            raise RuntimeError("DistributedWorker is closed")
        if not hasattr(program, "_execute"):  # rt.run(*tensors) on the primary program
            tensors = (program, *tensors)
            program = self._programs[0]
        dispatch = program.program.sub_workers
        index = next((i for i, p in enumerate(self._programs) if p is program), None)
        dispatch.callbacks = self._callbacks[index] if index is not None else {}
        try:
            return program._execute(list(tensors), config or self._config, self._keep_windows)
        except REPORTS as e:
            raise e.with_traceback(None) from None
        finally:
            dispatch.callbacks = {}


class DistributedRunHandle:
    """What `submit` returns: the dispatch has completed by the time it is returned."""

    def done(self):
        return True

    def result(self, timeout=None):
        return None

    def wait(self, timeout=None):
        return None


def _tensor_from_continuous(arg):
    """The torch tensor of one argument a SubWorker callback receives (zero-copy), as in PyPTO."""
    tensor = getattr(arg, "tensor", None)
    if tensor is None:
        raise TypeError(f"Expected a SubWorker callback argument, got {type(arg).__name__}")
    return tensor
