"""Function-style kernels (`@pl.jit`, `@pl.jit.incore`, `@pl.jit.host`, ...): each decorated function
is captured when defined; calling or compiling one compiles it with every jit function captured so far
from the same file (they call each other by name), the program named after the called function."""

from .capture import Capture, capture
from .program import Program

_BY_FILE = {}  # path -> [JitFunction] in definition order


class JitFunction:
    def __init__(self, fn, frame, kind):
        self.__wrapped__ = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.kind = kind
        self.capture = capture(fn, frame)
        _BY_FILE.setdefault(self.capture.path, []).append(self)
        self._programs = {}
        self._compiled = {}  # (platform, device ids) -> compiled program

    def program(self):
        """The Program rooted at this function, with the jit functions of its file."""
        peers = [j for j in _BY_FILE[self.capture.path] if j.capture.text == self.capture.text]
        key = tuple(id(j) for j in peers)
        if key not in self._programs:
            merged = Capture(path=self.capture.path, text=self.capture.text, ranges=[], name=self.__name__)
            for j in peers:
                merged.ranges.extend(j.capture.ranges)
                merged.imports.update(j.capture.imports)
                merged.names.update({k: v for k, v in j.capture.names.items() if k not in {p.__name__ for p in peers}})
            merged.ranges.sort()
            self._programs[key] = Program(merged)
        return self._programs[key]

    def compile(self, *tensors, config=None):
        """PyPTO's `fn.compile(*tensors, config=RunConfig(...))`: the compiled program."""
        __tracebackhide__ = True
        from pypto.runtime import run  # noqa: PLC0415

        dc = getattr(config, "distributed_config", None)
        key = (getattr(config, "platform", None), tuple(dc.device_ids) if dc is not None else None)
        if key not in self._compiled:
            self._compiled[key] = run(self.program(), config=config)
        return self._compiled[key]

    def __call__(self, *tensors, config=None):
        """Compiles (once per configuration) and runs over `tensors` in place."""
        __tracebackhide__ = True
        compiled = self.compile(*tensors, config=config)
        return compiled(*tensors, config=config)

    def __repr__(self):
        return f"<pl.{self.kind} {self.__name__}>"
