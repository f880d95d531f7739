"""`pypto.language.distributed` (`pld`) on ptodist: types, enums and op names by their spelling."""

from .._spelled import Spelled as _Spelled


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Spelled(f"pld.{name}")
