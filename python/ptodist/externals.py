"""Kernels defined outside a @pl.program class (`@pl.function` at module level) and called by bare name
from its methods, as PyPTO's parser resolves a name bound to an ir.Function: the program takes each one
its methods reach, and the ones they reach in turn.

A function in the program's own file joins the program's source as more kept lines; one in another
file is handed to the compiler as that file's source (its lines and bound names), which the program's
file imports by the Python module name (bound_source.h).
"""

import re

from .capture import Capture

MARK = "__ptodist_function__"  # on a module-level @pl.function: its Capture


def _externals(cap):
    """{local name: function} of the module-level @pl.function functions `cap`'s names are bound to."""
    frame_locals, frame_globals = cap.scope
    out = {}
    for name in sorted(cap.used):
        value = frame_locals[name] if name in frame_locals else frame_globals.get(name)
        if getattr(value, MARK, None) is not None:
            out[name] = value
    return out


def _module_name(module, taken):
    """A distinct dotted name for the file of `module` that the kernel language can spell (PyPTO's
    examples live in modules such as `examples.models.04_paged_attention`)."""
    base = re.sub(r"[^A-Za-z0-9_.]", "_", module or "module").strip(".") or "module"
    base = ".".join(("_" + p if p[:1].isdigit() else p) or "_" for p in base.split("."))
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def attach(root):
    """Adds to `root` (a program's Capture) the external functions its methods reach; returns the
    Captures of the other files they live in."""
    files = {}  # path -> Capture of that file's external functions
    taken = {root.module}
    seen = set()
    work = [(root, root.path)]
    while work:
        cap, path = work.pop()
        for local, fn in _externals(cap).items():
            ext = getattr(fn, MARK)
            if ext.path != path:
                if ext.path not in files:
                    files[ext.path] = Capture(path=ext.path, text=ext.text, ranges=[], name=root.name,
                                              module=_module_name(fn.__module__, taken))
                entry = (files[ext.path].module, fn.__name__, local)
                host = root if path == root.path else files[path]
                if entry not in host.jit_imports:
                    host.jit_imports.append(entry)
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            into = root if ext.path == root.path else files[ext.path]
            into.ranges.extend(r for r in ext.ranges if r not in into.ranges)
            into.imports.update(ext.imports)
            into.names.update({k: v for k, v in ext.names.items() if k not in into.names})
            work.append((ext, ext.path))
    for cap in (root, *files.values()):
        cap.ranges.sort()
        # A name bound to an external function is the function, not a constant.
        for local in {j[2] for j in cap.jit_imports}:
            cap.names.pop(local, None)
    return list(files.values())
