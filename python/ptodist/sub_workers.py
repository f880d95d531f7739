"""SubWorker methods: host Python that a host orchestrator calls between chip tasks.

`@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)` marks a method of a @pl.program class whose
body is ordinary Python (torch calls). The compiler keeps only its signature; when the host orchestrator
calls it, the runtime first finishes the chip work queued before the call, then calls back here with
numpy views of the call's tensors (no copy), which become torch tensors over the same memory: writes
into a `pl.Out` parameter (`f[:] = ...`) land in the caller's buffer.

As in PyPTO, a SubWorker whose body is only `...` is abstract: it must be bound at
`compiled.prepare(callbacks={name: fn})`, and a callback gets one argument, the list of mapped tensors
(`pypto.runtime.distributed_runner._tensor_from_continuous(args[i])` is the torch tensor).
"""

import ast
import inspect
import textwrap


class MappedArg:
    """One tensor of a callback's arguments: `tensor` (torch, or numpy without torch) over the memory
    the runtime passed, with the shape and strides (elements) PyPTO's mapped arguments carry."""

    def __init__(self, tensor, array):
        self.tensor = tensor
        self.shapes = tuple(array.shape)
        self.strides = tuple(s // array.itemsize for s in array.strides)
        self.dtype = str(tensor.dtype)


def is_abstract(fn):
    """True when the body is only `...` (after a docstring): a callback point with no implementation."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    body = [
        s for s in tree.body[0].body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))
    ]
    return len(body) == 1 and isinstance(body[0], ast.Expr) and getattr(body[0].value, "value", None) is ...


def _to_torch(array):
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return array
    if array.dtype.kind == "u" and array.itemsize == 2:  # BF16, which the core hands over as uint16
        return torch.from_numpy(array).view(torch.bfloat16)
    return torch.from_numpy(array)


class Dispatch:
    """What the runtime calls for a SubWorker: `dispatch(name, arrays)`. `callbacks` (set for the
    duration of a prepared handle's runs) replace the program's own methods by name."""

    def __init__(self, sub_workers):
        self.sub_workers = dict(sub_workers)
        self.abstract = {n for n, f in self.sub_workers.items() if is_abstract(f)}
        self.callbacks = {}

    def check_callbacks(self, callbacks):
        """PyPTO's prepare-time checks: known names, every abstract SubWorker bound, fn(args) arity."""
        callbacks = callbacks or {}
        unknown = sorted(set(callbacks) - set(self.sub_workers))
        if unknown:
            raise ValueError(
                f"callbacks names {unknown} are not sub-workers of this program. "
                f"Available sub-workers: {sorted(self.sub_workers)}."
            )
        missing = sorted(self.abstract - set(callbacks))
        if missing:
            raise ValueError(
                f"SubWorkers {missing} are runtime-bound callbacks (declared with a "
                f"`...` body) and must be supplied via callbacks={{...}}."
            )
        for name, fn in callbacks.items():
            if not callable(fn):
                raise TypeError(f"callback for SubWorker '{name}' is not callable: {fn!r}")
            try:
                inspect.signature(fn).bind(object())
            except TypeError as exc:
                raise TypeError(
                    f"callback for SubWorker '{name}' must accept a single positional "
                    f"argument fn(args: MappedArgs); got signature {inspect.signature(fn)}."
                ) from exc
            except ValueError:
                pass  # no introspectable signature
        return dict(callbacks)

    def __call__(self, name, arrays):
        tensors = [_to_torch(a) for a in arrays]
        if name in self.callbacks:
            self.callbacks[name]([MappedArg(t, a) for t, a in zip(tensors, arrays)])
            return
        if name in self.abstract:
            raise RuntimeError(
                f"SubWorker '{name}' is a runtime-bound callback with no default implementation; "
                f"supply it via prepare(callbacks={{'{name}': <fn>}})."
            )
        self.sub_workers[name](*tensors)
