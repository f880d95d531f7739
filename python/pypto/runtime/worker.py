"""`pypto.runtime.worker.RegistrationHandle` on ptodist: `worker.register(compiled)`'s bound dispatcher."""


class RegistrationHandle:
    """Dispatches one compiled program on one worker: `h(*args)` is `worker.run(compiled, *args)`.
    After `unregister()` or the worker's `close()` a call raises RuntimeError. `cid` is 0, as on
    PyPTO's L3 workers (no per-program registration id)."""

    __test__ = False

    def __init__(self, worker, compiled, cid=0):
        self._worker = worker
        self._compiled = compiled
        self._cid = cid
        self._closed = False

    @property
    def cid(self):
        return self._cid

    @property
    def compiled(self):
        return self._compiled

    @property
    def closed(self):
        return self._closed

    def __call__(self, *args, config=None):
        __tracebackhide__ = True
        if self._closed:
            raise RuntimeError(
                "RegistrationHandle has been unregistered (or its parent Worker was closed). "
                "Re-register via worker.register(compiled) to get a fresh handle."
            )
        return self._worker.run(self._compiled, *args, config=config)

    def unregister(self):
        self._closed = True

    def _mark_closed(self):
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.unregister()
        return False
