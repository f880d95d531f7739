"""Loads `_ptodist_core`, the C++ extension the normal CMake build puts in <build>/python.

Where the build is: $PTODIST_BUILD_DIR, else the repository's build/ (this file is python/ptodist/).
"""

import importlib
import os
import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]


def _load():
    try:
        return importlib.import_module("_ptodist_core")
    except ImportError:
        pass
    build = Path(os.environ.get("PTODIST_BUILD_DIR", _REPO / "build"))
    where = build / "python"
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))
    try:
        return importlib.import_module("_ptodist_core")
    except ImportError as e:
        raise ImportError(
            f"ptodist: the extension _ptodist_core is not in {where} ({e}); build it with "
            f"`cmake --build {build} --target _ptodist_core` or set PTODIST_BUILD_DIR to the build folder"
        ) from None


core = _load()
