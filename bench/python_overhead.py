"""Overhead of a compiled call from Python over the same run from C++ (docs/python.md).

Runs one kernel file three ways, interleaved in rounds so machine load hits them alike:
  - C++:           `ptodist bench FILE --ranks N` (median round, as the runtime times it);
  - Python, round: the round inside a Python call, as the runtime times it (what C++ pays);
  - Python, call:  the whole `compiled(*tensors)` call from Python (time.perf_counter around it).
and prints the medians, and the Python call's excess over each C++ figure (target: < 1 ms).

    PYTHONPATH=python /usr/bin/python3 bench/python_overhead.py [BUILD] [FILE] [RANKS]
"""

import importlib.util
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def load_module(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def host_program(mod):
    from ptodist.jit import JitFunction  # noqa: PLC0415

    jits = [v for v in vars(mod).values() if isinstance(v, JitFunction)]
    host = [j for j in jits if j.kind == "jit.host"]
    return (host or jits)[-1].program()


def python_rounds(compiled, tensors, rounds):
    calls, inner = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = compiled(*tensors)
        calls.append(time.perf_counter() - t0)
        inner.append(r.seconds)
    return calls, inner


def cli_median(build, file, ranks, rounds):
    out = subprocess.run(
        [str(build / "ptodist"), "bench", str(file), "--ranks", str(ranks), "--warmup", "2", "--rounds", str(rounds)],
        check=True, capture_output=True, text=True,
    ).stdout
    m = re.search(r"round\s+median\s+([0-9.]+) ms", out) or re.search(r"median\s+([0-9.]+) ms", out)
    return float(m.group(1)) / 1e3


def main():
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "build"
    file = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO / "examples" / "ring_shuffle_put.py"
    ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    import ptodist  # noqa: PLC0415

    compiled = host_program(load_module(file)).compile(ranks=ranks)
    rng = np.random.default_rng(0)
    tensors = []
    for name, dtype, shape, _direction in compiled.params:
        shape = [ranks if d is None else d for d in shape]
        tensors.append(rng.standard_normal(shape).astype(np.float32 if dtype == "FP32" else np.float16))
    python_rounds(compiled, tensors, 5)  # warm-up
    calls, inner, cli = [], [], []
    for _ in range(7):
        c, i = python_rounds(compiled, tensors, 20)
        calls += c
        inner += i
        cli.append(cli_median(build, file, ranks, 20))
    med = {k: statistics.median(v) * 1e3 for k, v in (("call", calls), ("round", inner), ("cli", cli))}
    print(f"== {file.name}, {ranks} ranks, {len(calls)} Python calls, {len(cli)} x 20 C++ rounds ({ptodist.__name__})")
    print(f"C++ (ptodist bench) median round {med['cli']:8.3f} ms")
    print(f"Python call, round inside       {med['round']:8.3f} ms")
    print(f"Python call, whole call         {med['call']:8.3f} ms")
    print(f"excess of a Python call over the C++ round: {med['call'] - med['cli']:+.3f} ms "
          f"(ratio {med['call'] / med['cli']:.2f}); over the round inside it: {med['call'] - med['round']:+.3f} ms")


if __name__ == "__main__":
    main()
