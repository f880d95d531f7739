"""Function-style kernels (`@pl.jit`, `@pl.jit.incore`, `@pl.jit.inline`, `@pl.jit.host`, ...).

Each decorated function is captured when defined. Calling or compiling one compiles it with the jit
functions it reaches, as PyPTO does: a function's callees are the jit functions its names are bound to
in the globals of the module that defines it, looked up at compile time (so a function defined later in
the file, or imported from a sibling module, counts). The program is named after the called function;
the functions of each other file are handed to the compiler as that file's own source, with its own
bound names, and imported by the files that call them.
"""

import re

from .capture import Capture, capture
from .jit_shapes import specialize, tensor_type
from .program import Program


class JitFunction:
    def __init__(self, fn, frame, kind):
        self.__wrapped__ = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.kind = kind
        self.capture = capture(fn, frame)
        self._programs = {}
        self._specialized = {}  # (functions reached, argument types) -> bare-parameter types
        self._cache = {}  # (program, platform, device ids) -> compiled program (PyPTO's name: tests clear it)

    def callees(self):
        """{local name: JitFunction} of the jit functions this one's names are bound to now."""
        frame_locals, frame_globals = self.capture.scope
        out = {}
        for name in sorted(self.capture.used):
            value = frame_locals[name] if name in frame_locals else frame_globals.get(name)
            if isinstance(value, JitFunction) and value is not self:
                out[name] = value
        return out

    def reached(self):
        """This function and every jit function it reaches, in a stable order (breadth first)."""
        order, seen = [self], {id(self)}
        for j in order:
            for callee in j.callees().values():
                if id(callee) not in seen:
                    seen.add(id(callee))
                    order.append(callee)
        return order

    def program(self, *tensors):
        """The Program rooted at this function: its file's source first, then each other file reached;
        bare `pl.Tensor` parameters specialized to `tensors`, the arguments of a call (jit_shapes.py)."""
        reached = self.reached()
        ids = tuple(id(j) for j in reached)
        arg_types = (ids, tuple(tensor_type(t) for t in tensors))
        if arg_types not in self._specialized:
            self._specialized[arg_types] = specialize(self, tensors) if tensors else []
        types = self._specialized[arg_types]
        key = (ids, tuple((id(j), p, tuple(s), d) for j, p, s, d in types))
        if key not in self._programs:
            self._programs[key] = Program(*_sources(self, reached, types))
        return self._programs[key]

    def compile(self, *tensors, config=None):
        """PyPTO's `fn.compile(*tensors, config=RunConfig(...))`: the compiled program, specialized to
        the shapes and dtypes of `tensors` (once per shapes and configuration)."""
        __tracebackhide__ = True
        from pypto.runtime import run  # noqa: PLC0415

        dc = getattr(config, "distributed_config", None)
        program = self.program(*tensors)
        key = (id(program), getattr(config, "platform", None), tuple(dc.device_ids) if dc is not None else None)
        if key not in self._cache:
            self._cache[key] = run(program, config=config)
        return self._cache[key]

    def __call__(self, *tensors, config=None):
        """Compiles (once per configuration) and runs over `tensors` in place."""
        __tracebackhide__ = True
        compiled = self.compile(*tensors, config=config)
        return compiled(*tensors, config=config)

    def __repr__(self):
        return f"<pl.{self.kind} {self.__name__}>"


def _module_names(files):
    """A distinct importable name per file: its Python module's name, made unique and a dotted name."""
    names, taken = {}, set()
    for path, module in files:
        base = re.sub(r"[^A-Za-z0-9_.]", "_", module or "module").strip(".") or "module"
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names[path] = name
    return names


def _sources(root, reached, types=()):
    """(root file's Capture, [other files' Captures]) for the functions in `reached`, with the types
    `types` ([(jit function, param, shape, dtype)]) of their bare pl.Tensor parameters."""
    by_file = {}
    for j in reached:
        by_file.setdefault(j.capture.path, []).append(j)
    modules = _module_names([(path, js[0].__module__) for path, js in by_file.items()])
    merged = {}
    for path, js in by_file.items():
        c = Capture(path=path, text=js[0].capture.text, ranges=[], name=root.__name__, module=modules[path])
        jit_names = set()
        for j in js:
            c.ranges.extend(j.capture.ranges)
            c.imports.update(j.capture.imports)
            for local, callee in j.callees().items():
                jit_names.add(local)
                if callee.capture.path != path:
                    entry = (modules[callee.capture.path], callee.__name__, local)
                    if entry not in c.jit_imports:
                        c.jit_imports.append(entry)
        for j in js:
            c.names.update({k: v for k, v in j.capture.names.items() if k not in jit_names})
        c.ranges.sort()
        c.jit_types = [(j.__name__, p, shape, dtype) for j, p, shape, dtype in types if j in js]
        merged[path] = c
    root_path = root.capture.path
    return merged[root_path], [c for p, c in merged.items() if p != root_path]
