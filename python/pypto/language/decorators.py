"""`@pl.program`, `@pl.function`, `@pl.jit*`: capture a kernel's source and bound names for ptodist."""

import sys

from ptodist import externals
from ptodist.capture import capture
from ptodist.program import Program


def program(cls=None, *, name=None, **_options):
    """`@pl.program` / `@pl.program(name=...)`: the class becomes a ptodist Program, captured now, while
    the names its kernels use still hold the values the enclosing code gave them. Its SubWorker methods
    (host Python) stay Python functions, which the runtime calls back when the host orchestrator does.
    Module-level @pl.function kernels its methods call by name join it (ptodist/externals.py)."""
    frame = sys._getframe(1)

    def wrap(c):
        sub_workers = {n: f for n, f in vars(c).items() if getattr(f, "__ptodist_sub_worker__", False)}
        cap = capture(c, frame, name=c.__name__)
        return Program(cap, modules=externals.attach(cap), sub_workers=sub_workers)

    if cls is None:
        return wrap
    return wrap(cls)


def function(fn=None, *, role=None, **_options):
    """`@pl.function(type=..., level=..., role=...)`: a marker; the compiler reads the decorator from
    the source, so the method is returned as it is. A `role=pl.Role.SubWorker` method is marked: its
    body is host Python that the runtime calls back (ptodist/sub_workers.py). A function defined
    outside a class body is captured, for the programs that call it by name (ptodist/externals.py)."""
    frame = sys._getframe(1)
    in_class_body = "__qualname__" in frame.f_locals and "__module__" in frame.f_locals

    def mark(f):
        if repr(role) == "pl.Role.SubWorker":
            f.__ptodist_sub_worker__ = True
        if not in_class_body:
            try:
                setattr(f, externals.MARK, capture(f, frame))
            except TypeError:
                pass  # no source (defined in exec'd text): a program calling it gets the compiler's error
        return f

    if fn is None:
        return mark
    return mark(fn)


def inline(fn=None, **_options):
    """`@pl.inline`: as `@pl.function`, read by the compiler from the source."""
    if fn is None:
        return lambda f: f
    return fn


class _Jit:
    """`@pl.jit`, `@pl.jit.incore`, `@pl.jit.inline`, `@pl.jit.host`: function-style kernels."""

    def __init__(self, kind="jit"):
        self._kind = kind

    def __call__(self, fn=None, **_options):
        frame = sys._getframe(1)

        def wrap(f):
            from ptodist.jit import JitFunction  # noqa: PLC0415

            return JitFunction(f, frame, self._kind)

        return wrap if fn is None else wrap(fn)

    def __getattr__(self, kind):
        if kind.startswith("__"):
            raise AttributeError(kind)
        return _Jit(f"jit.{kind}")


jit = _Jit()
