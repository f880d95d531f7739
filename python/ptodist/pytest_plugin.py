"""pytest plugin: PyPTO's test fixtures on ptodist, so PyPTO's own test files run unchanged.

    PYTHONPATH=<ptodist>/python pytest -p ptodist.pytest_plugin tests/st/distributed/test_l3_put.py

Provides what PyPTO's tests/st/conftest.py gives its tests: the options `--platform` (here
"ptodist", the default, or "ptodist-check"), `--device` (the device ids, one in-process rank each;
default 0-3) and the codegen flags, and the session fixtures `test_config` (a RunConfig), `device_ids`
(distributed tests parametrise `n_ranks` themselves and take `device_ids[:n_ranks]`) and `test_runner`
(single-device tests: `test_runner.run(SomeTestCase(...))`, st_runner.py). As PyPTO's conftest does, a
test file under a `tests/st` folder that holds PyPTO's harness gets that folder and the project root on
sys.path (`from harness.core.harness import PTOTestCase`, `from examples... import`).
"""

import sys
from pathlib import Path

import pytest

from pypto._platforms import DEFAULT, mode_of


def _add(parser, *args, **kwargs):
    try:
        parser.addoption(*args, **kwargs)
    except ValueError:
        pass  # PyPTO's own conftest is loaded too and has registered it


def pytest_addoption(parser):
    _add(parser, "--platform", action="store", default=DEFAULT,
         help="ptodist platform: 'ptodist' (fast) or 'ptodist-check' (check mode); a comma list takes the first")
    _add(parser, "--device", action="store", default="0-3",
         help="device ids, one in-process rank each: '0-3', '0,1', '0-1,4' (default 0-3)")
    _add(parser, "--codegen-only", action="store_true", default=False,
         help="compile only; skip every run")
    _add(parser, "--save-kernels", action="store_true", default=False, help="keep compiled artifacts")
    _add(parser, "--kernels-dir", action="store", default=None, help="where --save-kernels writes them")
    _add(parser, "--dump-passes", action="store_true", default=False, help="accepted; no effect here")


def parse_devices(raw):
    """'0-3,8' -> [0, 1, 2, 3, 8], as PyPTO's --device."""
    devices = []
    for token in str(raw).split(","):
        token = token.strip()
        if not token:
            continue
        try:
            if "-" in token:
                lo, hi = (int(x) for x in token.split("-", 1))
                if hi < lo:
                    raise pytest.UsageError(f"--device range must be non-decreasing, got {token!r}")
                devices.extend(range(lo, hi + 1))
            else:
                devices.append(int(token))
        except ValueError:
            raise pytest.UsageError(f"--device: expected ids or ranges such as 0-3,8, got {raw!r}") from None
    if not devices:
        raise pytest.UsageError("--device must not be empty")
    return devices


def _platform(config):
    first = str(config.getoption("--platform")).split(",")[0].strip()
    try:
        mode_of(first)
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None
    return first


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # PyPTO's harness package imports its TestRunner from harness.core.test_runner, PyPTO's device
    # pipeline; ptodist's runner stands in for that module (harness.py itself is PyPTO's, unchanged).
    from ptodist import st_runner  # noqa: PLC0415

    sys.modules.setdefault("harness.core.test_runner", st_runner)
    config.addinivalue_line("markers", "platforms(*ids): restrict the test to the given platform ids")
    config.addinivalue_line("markers", "slow: mark test as slow")
    _platform(config)


@pytest.fixture(scope="session")
def test_config(request):
    from pypto.runtime import RunConfig  # noqa: PLC0415

    cfg = request.config
    return RunConfig(
        platform=_platform(cfg),
        device_id=parse_devices(cfg.getoption("--device"))[0],
        save_kernels=cfg.getoption("--save-kernels"),
        save_kernels_dir=cfg.getoption("--kernels-dir") if cfg.getoption("--save-kernels") else None,
        codegen_only=cfg.getoption("--codegen-only"),
    )


@pytest.fixture(scope="session")
def device_ids(request):
    return parse_devices(request.config.getoption("--device"))


@pytest.fixture(scope="session")
def test_runner(test_config):
    from ptodist.st_runner import TestRunner  # noqa: PLC0415

    return TestRunner(test_config)


def _st_dir(path):
    """The `tests/st` folder above `path` that holds PyPTO's harness, or None."""
    for parent in Path(path).resolve().parents:
        if parent.name == "st" and parent.parent.name == "tests" and (parent / "harness" / "core").is_dir():
            return parent
    return None


def pytest_collect_file(file_path, parent):  # noqa: ARG001
    """Puts PyPTO's tests/st (its `harness` package) and the project root (its `examples` package) on
    sys.path before a test file under them is imported, as PyPTO's tests/st/conftest.py does."""
    st = _st_dir(file_path)
    if st is not None:
        for entry in (str(st.parent.parent), str(st)):
            if entry not in sys.path:
                sys.path.insert(0, entry)


@pytest.fixture(autouse=True)
def _ptodist_build_dir(request, tmp_path, monkeypatch):
    """ir.compile() writes its artifacts under the test's tmp dir unless --save-kernels."""
    if not request.config.getoption("--save-kernels"):
        monkeypatch.setenv("PYPTO_PROG_BUILD_DIR", str(tmp_path / "build_output"))


# PyPTO's platform ids a test may be restricted to (`@pytest.mark.platforms(...)`, or a `platform`
# parameter). ptodist runs the a2a3 chip profile, so it stands in for the a2a3 family; a test only for
# a5 / a5sim is deselected.
_STANDS_FOR = {"a2a3", "a2a3sim"}


def _variant_key(item):
    """What tells a test's platform variants apart from its other parametrisations."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    rest = tuple(sorted((k, repr(v)) for k, v in params.items() if k != "platform"))
    return (item.parent.nodeid if item.parent else "", getattr(item, "originalname", item.name), rest)


def _selected(item, twins):
    marker = next(item.iter_markers(name="platforms"), None)
    allowed = _STANDS_FOR & set(marker.args) if marker is not None else _STANDS_FOR
    platform = getattr(getattr(item, "callspec", None), "params", {}).get("platform")
    if platform is None:
        return bool(allowed)
    if platform not in allowed:
        return False
    # One run per test where PyPTO's a2a3 and a2a3sim variants would both run the same thing here.
    return not (platform == "a2a3sim" and "a2a3" in allowed and ("a2a3", _variant_key(item)) in twins)


def pytest_collection_modifyitems(config, items):
    twins = {
        (item.callspec.params["platform"], _variant_key(item))
        for item in items
        if "platform" in getattr(getattr(item, "callspec", None), "params", {})
    }
    selected, deselected = [], []
    for item in items:
        (selected if _selected(item, twins) else deselected).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected
