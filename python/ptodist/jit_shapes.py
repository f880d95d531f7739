"""Shapes of bare `pl.Tensor` parameters of jit functions, from the tensors a call passes.

PyPTO's `@pl.jit` lets a parameter be annotated `pl.Tensor` (or `pl.Out[pl.Tensor]`) with no shape:
calling or compiling the function with tensors specializes it to their shapes and dtypes, and each jit
function it calls to the shapes of the arguments it passes. This module works those types out the way
PyPTO's specializer does, from the function sources: the called function's parameters get the sample
tensors' types; then, through each body in order, a call of another jit function gives that callee's
parameters the types of the names passed to it, and the names the call assigns get the types of the
parameters the callee's first `return` names (when every returned name is a parameter of known type),
else of the arguments passed to its `pl.Out` / `pl.InOut` parameters (in order); `y = x` copies a
type; `y = pl.create_tensor(shape, dtype=...)` gives y that shape and dtype when Python can evaluate
them in the function's module (names bound to ints and dtypes there, no calls). Anything else assigned
to a name makes its type unknown. A bare parameter whose type is not found this way stays bare, and the
compiler reports it where it is written.
"""

import ast
import inspect
import textwrap
import weakref

import numpy as np

from . import buffers


def tensor_type(value):
    """(shape, dtype name) of a torch tensor, numpy array or DeviceTensor; None for anything else."""
    if hasattr(value, "host_tensor"):
        value = value.host_tensor()
    torch = buffers._torch()
    if torch is not None and isinstance(value, torch.Tensor):
        name = buffers._torch_names(torch).get(value.dtype)
    elif isinstance(value, np.ndarray):
        name = buffers._NUMPY.get(value.dtype)
    else:
        return None
    return (tuple(int(d) for d in value.shape), name) if name else None


def _head(node):
    """'pl.Tensor' for the annotation pl.Tensor, 'pl.Out' for pl.Out[...], ... (dotted path of the head)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


class _Signature:
    """A jit function's parameters: their names in order, which are bare pl.Tensor, which are written."""

    def __init__(self, jit):
        tree = ast.parse(textwrap.dedent(inspect.getsource(jit.__wrapped__)))
        self.node = next(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        self.params, self.bare, self.written = [], set(), []
        for a in self.node.args.args:
            self.params.append(a.arg)
            ann = a.annotation
            if ann is None:
                continue
            head = _head(ann).rsplit(".", 1)[-1]
            inner = ann.slice if isinstance(ann, ast.Subscript) and head in ("Out", "InOut", "In") else ann
            if head in ("Out", "InOut"):
                self.written.append(a.arg)
            if not isinstance(inner, ast.Subscript) and _head(inner).rsplit(".", 1)[-1] == "Tensor":
                self.bare.add(a.arg)
        # The names of the first `return` with a value (None for an element that is not a name), as
        # PyPTO's specializer reads a call's result types from it.
        first = next((n for n in ast.walk(self.node) if isinstance(n, ast.Return) and n.value is not None), None)
        values = [] if first is None else first.value.elts if isinstance(first.value, ast.Tuple) else [first.value]
        self.returned = [v.id if isinstance(v, ast.Name) else None for v in values]


# A function's source is parsed once, not at every call that specializes it.
_SIGNATURES = weakref.WeakKeyDictionary()


class JitShapes:
    """The table the compiler takes: {jit function: {parameter: (shape, dtype name)}} for bare ones."""

    def __init__(self):
        self.types = {}  # JitFunction -> {param: (shape, dtype)}
        self._visited = set()

    def signature(self, jit):
        if jit not in _SIGNATURES:
            _SIGNATURES[jit] = _Signature(jit)
        return _SIGNATURES[jit]

    def enter(self, jit, known):
        """Specializes `jit` whose parameters have the types `known` ({param: type}), then its callees."""
        sig = self.signature(jit)
        mine = self.types.setdefault(jit, {})
        for p in sig.params:
            t = known.get(p) if p in sig.bare else None
            if t is None:
                continue
            if p in mine and mine[p] != t:
                raise TypeError(
                    f"jit function {jit.__name__!r} is called with parameter {p!r} of shape {list(mine[p][0])} "
                    f"{mine[p][1]} and of shape {list(t[0])} {t[1]}; ptodist specializes a bare pl.Tensor "
                    "parameter to one shape: annotate it with its shape (pl.Tensor[[M, N], dtype])"
                )
            mine[p] = t
        key = (jit, tuple(sorted(known.items())))
        if key in self._visited:
            return
        self._visited.add(key)
        self._walk(sig.node.body, dict(known), jit.callees(), jit.capture.scope)

    def _walk(self, stmts, local, callees, scope):
        for stmt in stmts:
            targets, value = _assignment(stmt)
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in callees:
                results = self._call(value, local, callees[value.func.id])
                for target, t in zip(targets, results + [None] * len(targets)):
                    _bind(local, target, t)
            elif _is_create_tensor(value) and len(targets) == 1:
                _bind(local, targets[0], _created_type(value, scope))
            else:
                for call in _calls(stmt):
                    if isinstance(call.func, ast.Name) and call.func.id in callees:
                        self._call(call, local, callees[call.func.id])
                for target in targets:
                    _bind(local, target, local.get(value.id) if isinstance(value, ast.Name) else None)
            for field in ("body", "orelse", "finalbody"):
                nested = getattr(stmt, field, None)
                if isinstance(nested, list) and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                    self._walk(nested, local, callees, scope)

    def _call(self, call, local, callee):
        """Enters `callee` with the types of the names `call` passes; returns the types of what the
        call gives back: those of the parameters its `return` names (a bare `pl.Tensor` parameter of a
        `@pl.jit.inline` function returned as its result), else the arguments passed to its written
        parameters, in order."""
        sig = self.signature(callee)
        passed = dict(zip(sig.params, call.args))
        passed.update({k.arg: k.value for k in call.keywords if k.arg in sig.params})
        known = {p: local.get(a.id) for p, a in passed.items() if isinstance(a, ast.Name)}
        self.enter(callee, {p: t for p, t in known.items() if t is not None})
        returned = [known.get(name) if name in sig.params else None for name in sig.returned]
        if returned and all(t is not None for t in returned):
            return returned
        return [known.get(p) for p in sig.written]

    def table(self):
        """[(jit function, param, shape, dtype)] of every bare parameter whose type was found."""
        return [(jit, p, list(shape), dtype) for jit, ps in self.types.items() for p, (shape, dtype) in ps.items()]


def _assignment(stmt):
    """(names assigned, value) of `a = v`, `a, b = v`, `a: T = v`; ([], None) for other statements."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        return names, stmt.value
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return [stmt.target], stmt.value
    return [], None


def _is_create_tensor(value):
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "create_tensor"


def _created_type(call, scope):
    """(shape, dtype name) of `pl.create_tensor(shape, dtype=...)` evaluated in the defining module's
    names, or None when they are not all known there (a run-time dim, a local variable)."""
    shape = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "shape"), None)
    dtype = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "dtype"), None)
    if shape is None or dtype is None:
        return None
    frame_locals, frame_globals = scope
    names = {**frame_globals, **frame_locals}
    try:
        dims, dt = (_evaluate(node, names) for node in (shape, dtype))
    except Exception:  # noqa: BLE001 - any name or value Python cannot give here: the type stays unknown
        return None
    if not isinstance(dims, (list, tuple)) or not all(isinstance(d, int) for d in dims):
        return None
    name = getattr(dt, "name", None)
    return (tuple(dims), name) if isinstance(name, str) else None


def _evaluate(node, names):
    """`node` evaluated over `names` only: no builtins, and no calls (evaluating one could run anything)."""
    if any(isinstance(n, ast.Call) for n in ast.walk(node)):
        raise ValueError("a call")
    return eval(compile(ast.Expression(node), "<shape>", "eval"), {"__builtins__": {}}, names)  # noqa: S307


def _bind(local, target, t):
    if isinstance(target, ast.Name):
        if t is None:
            local.pop(target.id, None)
        else:
            local[target.id] = t


def _calls(stmt):
    """The calls in `stmt` itself, not in the statements nested in it (those are walked in order)."""
    nested = [n for f in ("body", "orelse", "finalbody") for n in getattr(stmt, f, []) or []]
    skip = {id(n) for s in nested for n in ast.walk(s)}
    return [n for n in ast.walk(stmt) if isinstance(n, ast.Call) and id(n) not in skip]


def specialize(root, args):
    """The bare-parameter types of `root` (a JitFunction) called with `args`, and of what it reaches."""
    shapes = JitShapes()
    sig = shapes.signature(root)
    known = {p: tensor_type(a) for p, a in zip(sig.params, args)}
    shapes.enter(root, {p: t for p, t in known.items() if t is not None})
    return shapes.table()
