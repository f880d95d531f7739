"""Programs defined in Python, compiled by ptodist's C++ compiler and run on in-process ranks."""

from dataclasses import dataclass

from . import buffers
from ._native import core
from .errors import REPORTS
from .sub_workers import Dispatch


@dataclass
class RunResult:
    seconds: float  # wall time of the round
    rank_seconds: list  # per rank: its chip orchestration, start to end
    schedule_digest: int  # check mode: equal digests mean the same interleaving


class Program:
    """A @pl.program class (or a set of @pl.jit functions) as captured when its decorator ran."""

    def __init__(self, capture, modules=(), sub_workers=None):
        self.capture = capture
        self.modules = list(modules)  # Captures of the other files its jit functions reach
        self.name = capture.name
        self._compiled = {}
        # SubWorker methods (host Python), called back by the runtime (sub_workers.py).
        self.sub_workers = Dispatch(sub_workers or {})

    def __repr__(self):
        return f"<ptodist program {self.name} from {self.capture.path}>"

    def compile(self, ranks=2, mode="fast", seed=1, watchdog=10.0, profile="a2a3", entry="", persistent=False):
        """Compiles for `ranks` ranks in `mode` ("fast", "check", or "mpi": fast, with this process as one
        of mpirun's `ranks` processes); raises CompileError with the located report. `persistent` keeps window contents from one call to the next (the program
        resets its signals); otherwise windows start zeroed at every call. Cached per arguments."""
        key = (ranks, mode, seed, watchdog, profile, entry, persistent)
        if key not in self._compiled:
            c = self.capture
            backend = "mpi" if mode == "mpi" else "inproc"
            sources = [c.source()] + [m.source() for m in self.modules]
            native = core.compile(
                sources, c.name, ranks, "fast" if mode == "mpi" else mode,
                seed, watchdog, profile, entry, persistent,
                self.sub_workers if self.sub_workers.sub_workers else None, backend,
            )
            self._compiled[key] = Compiled(native)
        return self._compiled[key]


class Compiled:
    """A compiled program: call it with one numpy array or CPU torch tensor per host parameter."""

    def __init__(self, native):
        self.native = native
        self.params = native.params()  # (name, dtype, shape with None for dynamic dims, direction)
        self.name = native.name
        self.ranks = native.ranks

    def __call__(self, *tensors):
        """Runs one round on the tensors in place; raises RunError, HazardError or HangError."""
        if len(tensors) != len(self.params):
            names = [p[0] for p in self.params]
            raise TypeError(f"program {self.name!r} takes {len(self.params)} tensors {names}, got {len(tensors)}")
        __tracebackhide__ = True
        bound = buffers.bind(tensors, self.params)
        try:
            seconds, rank_seconds, digest = self.native.run(bound.descriptors)
        except REPORTS as e:
            raise e.with_traceback(None) from None
        bound.write_back()
        return RunResult(seconds, list(rank_seconds), digest)

    def write_pto(self, directory):
        """Writes each kernel's PTO text and the manifest to `directory`."""
        self.native.write_pto(str(directory))
