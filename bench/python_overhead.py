"""Overhead of a compiled call from Python over the same run from C++ (docs/python.md).

One kernel file, compiled once, run four ways in one process, interleaved round by round (so the load
of a shared machine hits every way alike; the order rotates every round):
  - C++ round:     `native.run_rounds(buffers, 1)`, the round run from C++ with no Python in it, timed
                   in C++ around Runtime::run (what `ptodist bench` times);
  - ptodist call:  `compiled(*tensors)` of `ptodist.compile`, timed with time.perf_counter;
  - PyPTO call:    `compiled(*tensors)` of `pypto.ir.compile` (torch tensors, PyPTO's API);
  - the round inside the PyPTO call, as the runtime times it.
It prints the medians, each call's median excess over the C++ round of the same iteration (target:
< 1 ms) and the ratio of the medians; then, for reference, `ptodist bench` in its own process
(separate processes see the machine at other moments: compare with care).

    PYTHONPATH=python /usr/bin/python3 bench/python_overhead.py [BUILD] [FILE] [RANKS] [ROUNDS]
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


def make_tensors(params, ranks):
    import torch  # noqa: PLC0415

    rng = np.random.default_rng(0)
    tensors = []
    for _name, dtype, shape, _direction in params:
        shape = [ranks if d is None else d for d in shape]
        tensors.append(torch.from_numpy(rng.standard_normal(shape).astype(np.float32 if dtype == "FP32" else np.float16)))
    return tensors


def timed(fn):
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def interleaved(compiled, pypto_compiled, tensors, rounds):
    """{way: [seconds per iteration]}, every way once per iteration, in an order that rotates."""
    from ptodist import buffers  # noqa: PLC0415

    bound = buffers.bind(tensors, compiled.params)
    inner = []
    ways = {
        "cpp": lambda: compiled.native.run_rounds(bound.descriptors, 1)[0][0],
        "ptodist": lambda: timed(lambda: compiled(*tensors))[0],
        "pypto": lambda: timed(lambda: pypto_compiled(*tensors))[0],
    }
    times = {k: [] for k in ways}
    names = list(ways)
    for i in range(rounds):
        for k in names[i % 3:] + names[:i % 3]:
            times[k].append(ways[k]())
    # The round inside a PyPTO call, as the runtime times it, for the same calls' layer cost.
    for _ in range(rounds // 4):
        inner.append(compiled(*tensors).seconds)
    times["inside"] = inner
    return times


def cli_median(build, file, ranks, rounds):
    out = subprocess.run(
        [str(build / "ptodist"), "bench", str(file), "--ranks", str(ranks), "--warmup", "2", "--rounds", str(rounds)],
        check=True, capture_output=True, text=True,
    ).stdout
    m = re.search(r"round\s+median\s+([0-9.]+) ms", out)
    return float(m.group(1)) / 1e3


def main():
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "build"
    file = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO / "examples" / "ring_shuffle_put.py"
    ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 600
    from pypto import ir  # noqa: PLC0415
    from pypto.ir.distributed_compiled_program import DistributedConfig  # noqa: PLC0415

    program = host_program(load_module(file))
    compiled = program.compile(ranks=ranks)
    pypto_compiled = ir.compile(program, output_dir="/tmp/ptodist-python-overhead",
                                distributed_config=DistributedConfig(device_ids=list(range(ranks))))
    tensors = make_tensors(compiled.params, ranks)
    interleaved(compiled, pypto_compiled, tensors, 30)  # warm-up
    times = interleaved(compiled, pypto_compiled, tensors, rounds)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    excess = {k: statistics.median(a - c for a, c in zip(times[k], times["cpp"])) * 1e3 for k in ("ptodist", "pypto")}
    print(f"== {file.name}, {ranks} ranks, {rounds} iterations of each way, interleaved in one process")
    print(f"C++ round (run_rounds, no Python in it)  median {med['cpp']:8.3f} ms")
    print(f"ptodist compiled(*tensors), whole call   median {med['ptodist']:8.3f} ms   "
          f"excess over the C++ round {excess['ptodist']:+.3f} ms (ratio of medians {med['ptodist'] / med['cpp']:.2f})")
    print(f"pypto compiled(*tensors), whole call     median {med['pypto']:8.3f} ms   "
          f"excess over the C++ round {excess['pypto']:+.3f} ms (ratio of medians {med['pypto'] / med['cpp']:.2f})")
    print(f"round inside a Python call (runtime's)   median {med['inside']:8.3f} ms")
    cli = [cli_median(build, file, ranks, 50) for _ in range(3)]
    print(f"for reference, `ptodist bench` in its own process, 3 x 50 rounds: median round "
          f"{statistics.median(cli) * 1e3:.3f} ms (min of the 3 medians {min(cli) * 1e3:.3f} ms)")


if __name__ == "__main__":
    main()
