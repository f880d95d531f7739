"""`pypto.runtime.distributed_runner` on ptodist: one-shot execution and the prepared worker handle."""

import warnings

from ptodist.errors import REPORTS

from .runtime_base import Worker
from .worker import RegistrationHandle


def execute_distributed(compiled, tensors, config=None):
    """Runs a compiled distributed program once over host tensors (in place)."""
    __tracebackhide__ = True
    return compiled._execute(list(tensors), config)


class DistributedWorker(Worker):
    """`compiled.prepare()` or `DistributedWorker([compiled, ...])`: dispatch compiled programs many
    times, with worker-resident tensors (runtime_base.py) that survive across dispatches. Prepared
    with several programs, `rt(*args)` is ambiguous and `rt.run(compiled, *args)` picks one."""

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
        super().__init__()
        self._programs = list(programs)
        self._config = config
        self._closed = False
        self._handles = []
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

    def _require_open(self, op):
        if self._closed:
            raise RuntimeError(f"DistributedWorker.{op}() called after close()")

    def close(self):
        """Frees the DeviceTensors the caller did not and closes every registration handle."""
        if self._closed:
            return
        self._close_owned_tensors()
        self._closed = True
        for handle in self._handles:
            handle._mark_closed()
        self._handles.clear()

    def register(self, compiled):
        """A RegistrationHandle that dispatches `compiled`, one of the programs this worker prepared."""
        self._require_open("register")
        self._index_of(compiled)
        handle = RegistrationHandle(self, compiled, cid=0)
        self._handles.append(handle)
        return handle

    def _index_of(self, compiled):
        index = next((i for i, p in enumerate(self._programs) if p is compiled), None)
        if index is None:
            raise ValueError(
                "DistributedWorker.run/register(compiled) requires a DistributedCompiledProgram "
                "registered when this worker was constructed."
            )
        return index

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
        if len(self._programs) > 1:
            raise TypeError(
                "rt(*args) is ambiguous on a multi-program DistributedWorker; "
                "dispatch explicitly with rt.run(compiled, *args)."
            )
        return self.run(self._programs[0], *tensors, config=config)

    def run(self, program, *tensors, config=None):
        __tracebackhide__ = True
        self._require_open("run")
        if not hasattr(program, "_execute"):  # rt.run(*tensors) on the primary program
            tensors = (program, *tensors)
            program = self._programs[0]
        dispatch = program.program.sub_workers
        dispatch.callbacks = self._callbacks[self._index_of(program)]
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
