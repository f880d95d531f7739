"""A pytest plugin that reruns every in-process call of a PyPTO test file under mpirun (docs/mpi.md,
"PyPTO's files under mpirun"): the file runs as usual through ptodist's Python entry point (in-process,
the file's own asserts check the outputs), and after each call of a compiled program the same program
runs again as `mpirun -np N ptodist run FILE --program NAME -D <factory arguments> --in <the call's
tensors> --backend mpi`; its outputs must equal the in-process ones, or the test fails. So an MPI run
that passes has given the results the file asserts, with the inputs and factory values its pytest passes.

  PYTHONPATH=<ptodist>/python:<ptodist>/tests/e2e/mpi /usr/bin/python3 -m pytest -p ptodist.pytest_plugin \
      -p mpi_pytest_plugin --noconftest FILES      (PTODIST=<ptodist binary>, default build/ptodist)

The Python entry point runs only the in-process backend; this is how its files reach the MPI one.
"""
import os
import subprocess
import tempfile

import numpy as np
import pypto.language.decorators as decorators
from ptodist import program as ptodist_program

HERE = os.path.dirname(os.path.abspath(__file__))
PTODIST = os.environ.get("PTODIST", os.path.join(HERE, "..", "..", "..", "build", "ptodist"))
RANK_NAMES = {"world_size", "n_ranks", "nranks", "num_ranks"}
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

_capture = decorators.capture


def _spelling(value):
    """The -D text of a factory argument, or None when the command line cannot bind it."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    path = getattr(value, "__ptodist_path__", None)
    return path if isinstance(path, str) else None


def _capture_with_factory_args(obj, frame, name=None):
    cap = _capture(obj, frame, name)
    code = frame.f_code
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    cap.factory_args = {n: frame.f_locals[n] for n in names if n in frame.f_locals and n not in RANK_NAMES}
    return cap


decorators.capture = _capture_with_factory_args

_compile = ptodist_program.Program.compile
_call = ptodist_program.Compiled.__call__


def _compile_keeping_capture(self, *args, **kwargs):
    compiled = _compile(self, *args, **kwargs)
    compiled.mpi_capture = self.capture
    compiled.mpi_plain = args[1:] in ((), ("fast",)) and kwargs.get("mode", "fast") == "fast" and not kwargs.get(
        "entry")
    return compiled


def _as_numpy(t):
    return t.detach().cpu().numpy() if hasattr(t, "detach") else np.asarray(t)


MPI_RUNS = []  # (program, np) of every MPI rerun that matched


def _mpi_rerun(compiled, inputs, outputs):
    cap = compiled.mpi_capture
    work = tempfile.mkdtemp(prefix="mpi-pytest-")
    cmd = ["timeout", "300", "mpirun", "-np", str(compiled.ranks), "--oversubscribe", PTODIST, "run", cap.path,
           "--program", compiled.name, "--backend", "mpi", "--watchdog", "60", "--out-dir", work]
    for k, v in sorted(getattr(cap, "factory_args", {}).items()):
        if _spelling(v) is not None:
            cmd += ["-D", f"{k}={_spelling(v)}"]
    for (name, *_), value in zip(compiled.params, inputs):
        path = os.path.join(work, f"in_{name}.npy")
        np.save(path, value)
        cmd += ["--in", f"{name}={path}"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ENV)
    text = p.stdout.decode(errors="replace")
    assert p.returncode == 0, f"MPI run of {compiled.name} at np {compiled.ranks} failed ({p.returncode}):\n" + \
        " ".join(cmd) + "\n" + text[-3000:]
    for (name, _dtype, _shape, direction), got_inproc in zip(compiled.params, outputs):
        if str(direction).split(".")[-1].lower() == "in":
            continue
        got_mpi = np.load(os.path.join(work, f"{name}.npy"))
        assert np.allclose(got_mpi.astype(np.float64), got_inproc.astype(np.float64), rtol=1e-5, atol=1e-6,
                           equal_nan=True), (
            f"MPI run of {compiled.name} at np {compiled.ranks}: '{name}' differs from the in-process run "
            f"(max diff {np.abs(got_mpi.astype(np.float64) - got_inproc.astype(np.float64)).max()})")
    MPI_RUNS.append((compiled.name, compiled.ranks))


def pytest_terminal_summary(terminalreporter):
    runs = ", ".join(f"{name} np {n}" for name, n in MPI_RUNS) or "none"
    terminalreporter.write_line(f"mpi reruns that matched the in-process outputs: {len(MPI_RUNS)} ({runs})")


def _call_then_mpi(self, *tensors):
    __tracebackhide__ = True
    inputs = [_as_numpy(t).copy() for t in tensors]
    result = _call(self, *tensors)
    if getattr(self, "mpi_plain", False) and len(tensors) == len(self.params):
        _mpi_rerun(self, inputs, [_as_numpy(t) for t in tensors])
    return result


ptodist_program.Program.compile = _compile_keeping_capture
ptodist_program.Compiled.__call__ = _call_then_mpi
