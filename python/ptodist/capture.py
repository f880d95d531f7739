"""What the compiler needs of a kernel that Python has defined: where its source is, and what the names
it uses are bound to at the moment its decorator ran.

The interpreter has already evaluated the user's module (imports, dataclass configs, factories with any
arguments); the C++ front end takes the kernel's own lines of the user's file plus a table of bound
names, and reports errors at the user's file, line and column.
"""

import ast
import inspect
import linecache
import textwrap
import types
from dataclasses import dataclass, field

_LANGUAGE = "pypto.language"


@dataclass
class Capture:
    path: str  # the user's file
    text: str  # its whole text, as the interpreter read it
    ranges: list  # (first line, last line) of each piece to compile, decorators included
    imports: dict = field(default_factory=dict)  # local name -> module of the language
    names: dict = field(default_factory=dict)  # free name -> value (int, float, str, dtype, tuple ...)
    name: str = ""  # the program's name
    module: str = ""  # the Python module that defines it: other files import its jit functions by it
    jit_imports: list = field(default_factory=list)  # (module, name, local) of jit functions of other files
    used: set = field(default_factory=set)  # every name the source reads
    scope: tuple = ({}, {})  # (locals, globals) of the defining frame: jit callees are looked up late
    jit_types: list = field(default_factory=list)  # (function, param, shape, dtype) of bare pl.Tensor params

    def source(self):
        """The tuple the core's compile() takes for this file."""
        return (self.module, self.path, self.text, self.ranges, self.imports, self.names, self.jit_imports,
                self.jit_types)


def _bindable(value, depth=0):
    if depth > 8:
        return False
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (tuple, list)):
        return all(_bindable(v, depth + 1) for v in value)
    return isinstance(getattr(value, "__ptodist_path__", None), str)


def _used_names(tree):
    """Every name the source reads: plain names and the roots of attribute paths."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
    return names


def bind_names(used, frame_locals, frame_globals, capture):
    """Fills `capture` with the values of `used` the language can take; other names stay unbound, so a
    kernel that uses one gets the compiler's located error (host values such as torch stay host-side)."""
    for name in sorted(used):
        if name in frame_locals:
            value = frame_locals[name]
        elif name in frame_globals:
            value = frame_globals[name]
        else:
            continue  # a builtin, a local of a kernel, or undefined: the compiler decides
        if isinstance(value, types.ModuleType):
            if value.__name__ == "pypto" or value.__name__.startswith(_LANGUAGE):
                capture.imports[name] = value.__name__
        elif _bindable(value):
            capture.names[name] = value


def source_of(obj):
    """(path, whole text, first line, last line) of a class or function defined in a file."""
    try:
        path = inspect.getsourcefile(obj)
        lines, first = inspect.getsourcelines(obj)
    except (OSError, TypeError) as e:
        raise TypeError(
            f"ptodist needs the source of {getattr(obj, '__qualname__', obj)!r}, which Python cannot find "
            f"({e}); define it in a .py file"
        ) from None
    text = "".join(linecache.getlines(path))
    return path, text, first, first + len(lines) - 1, "".join(lines)


def capture(obj, frame, name=None):
    """The Capture of `obj` (a @pl.program class or a @pl.jit function) decorated in `frame`."""
    path, text, first, last, source = source_of(obj)
    tree = ast.parse(textwrap.dedent(source))
    cap = Capture(path=path, text=text, ranges=[(first, last)], name=name or obj.__name__,
                  module=getattr(obj, "__module__", "") or "")
    cap.used = _used_names(tree)
    cap.scope = (frame.f_locals, frame.f_globals)
    bind_names(cap.used, frame.f_locals, frame.f_globals, cap)
    return cap
