"""`pypto.runtime.distributed_runner` on ptodist: one-shot execution and the prepared worker handle."""

from ptodist.errors import REPORTS


def execute_distributed(compiled, tensors, config=None):
    """Runs a compiled distributed program once over host tensors (in place)."""
    __tracebackhide__ = True
    return compiled._execute(list(tensors), config)


class DistributedWorker:
    """`compiled.prepare()`: dispatch the same compiled program many times."""

    def __init__(self, programs, config=None, *, persistent=False, reset_persistent_windows=None, **_options):
        self._programs = list(programs)
        self._config = config
        self._closed = False
        # Windows keep their contents between dispatches only when asked not to reset them.
        self._keep_windows = persistent and reset_persistent_windows is False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        self._closed = True

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
        try:
            return program._execute(list(tensors), config or self._config, self._keep_windows)
        except REPORTS as e:
            raise e.with_traceback(None) from None


DistributedRunHandle = DistributedWorker
