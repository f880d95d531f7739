"""Values of the kernel language as Python sees them: each one knows how it is spelled in a kernel.

`pl.FP16`, `pld.NotifyOp.Set`, `pl.dynamic("NR")`, `pl.Tensor[[M, K], pl.FP16]` are objects whose
`__ptodist_path__` is that spelling, so a kernel that uses a name bound to one (a module constant, a
factory argument) reads to the compiler exactly as if the spelling were written there. Ops
(`pl.load`, `pld.tensor.put`) exist only inside kernels: calling one from Python says so.
"""


def spell(value):
    """The kernel-language spelling of a Python value used inside a type or a call."""
    if isinstance(value, Spelled):
        return value.__ptodist_path__
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float, str)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(spell(v) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(spell(v) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    raise TypeError(f"{type(value).__name__} has no spelling in the kernel language")


class Spelled:
    """A dotted path of the language: attribute access goes deeper, subscription spells a type."""

    def __init__(self, path):
        object.__setattr__(self, "__ptodist_path__", path)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Spelled(f"{self.__ptodist_path__}.{name}")

    def __getitem__(self, key):
        inner = ", ".join(spell(k) for k in key) if isinstance(key, tuple) else spell(key)
        return Spelled(f"{self.__ptodist_path__}[{inner}]")

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"{self.__ptodist_path__} is part of the kernel language: it runs inside a @pl.function or "
            f"@pl.jit kernel compiled by ptodist, not in host Python"
        )

    def __eq__(self, other):
        return isinstance(other, Spelled) and other.__ptodist_path__ == self.__ptodist_path__

    def __hash__(self):
        return hash(self.__ptodist_path__)

    def __repr__(self):
        return self.__ptodist_path__

    def __mro_entries__(self, bases):
        return ()


def _binary(op, reflected=False):
    def method(self, other):
        a, b = (other, self) if reflected else (self, other)
        return Spelled(f"({spell(a)} {op} {spell(b)})")

    return method


# Arithmetic on dims (`NR * SIZE` in a shape written with pl.dynamic) spells the expression.
for _name, _op in (("add", "+"), ("sub", "-"), ("mul", "*"), ("floordiv", "//"), ("mod", "%")):
    setattr(Spelled, f"__{_name}__", _binary(_op))
    setattr(Spelled, f"__r{_name}__", _binary(_op, reflected=True))


class DType(Spelled):
    """`pl.FP16` and friends: `get_byte()` and `name` work in host Python too (sizes of buffers)."""

    def __init__(self, name, nbytes):
        super().__init__(f"pl.{name}")
        object.__setattr__(self, "_bytes", nbytes)
        object.__setattr__(self, "name", name)

    def get_byte(self):
        return self._bytes

    def __getattr__(self, name):
        raise AttributeError(f"pl.{self.name} has no attribute {name!r}")


class Call(Spelled):
    """A call the language evaluates at compile time (`pl.dynamic("NR")`), spelled with its arguments."""

    def __init__(self, path, args, kwargs):
        parts = [spell(a) for a in args] + [f"{k}={spell(v)}" for k, v in kwargs.items()]
        super().__init__(f"{path}({', '.join(parts)})")


DTYPES = {
    "FP32": 4,
    "FP16": 2,
    "BF16": 2,
    "INT32": 4,
    "INT16": 2,
    "INT8": 1,
    "UINT8": 1,
    "UINT16": 2,
    "UINT32": 4,
    "INT64": 8,
    "BOOL": 1,
    "INDEX": 8,
}
