"""Cost of `ptodist predict` at the published all-gather + GEMM size (docs/timing.md, docs/benchmarks.md).

Times, as whole processes, `ptodist predict` of examples/allgather_gemm.py on 8 ranks at pypto-lib's
published size (m_local=2048, k=n=4096: about 2.7 million ops recorded and replayed) against its
baseline, `ptodist check` of the same file and size (parse, factory, checking passes: the fixed cost
every command pays), interleaved round by round so the load of a shared machine hits both alike. It
prints each one's median CPU seconds (user + system, from the kernel's accounting of the child), the
ratio of the medians, and predict's peak RSS. Figures, not a verdict: nothing here fails on a number.

    python3 bench/predict_speed.py [BUILD] [ROUNDS]
"""

import resource
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SIZE = ["--ranks", "8", "-D", "m_local=2048", "-D", "k=4096", "-D", "n=4096"]


def cpu_run(cmd):
    """CPU seconds and peak RSS (KiB) of one run of `cmd`, from the kernel's child accounting."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss


def main():
    build = Path(sys.argv[1] if len(sys.argv) > 1 else "build")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ptodist = str(build / "ptodist")
    example = str(REPO / "examples" / "allgather_gemm.py")
    predict = [ptodist, "predict", example, *SIZE]
    check = [ptodist, "check", example, *SIZE]
    cpu_run(check)  # warm-up: the binary and the file in the page cache
    predict_cpu, check_cpu, peak = [], [], 0
    for _ in range(rounds):
        cpu, peak = cpu_run(predict)
        predict_cpu.append(cpu)
        check_cpu.append(cpu_run(check)[0])
    p, c = statistics.median(predict_cpu), statistics.median(check_cpu)
    print(f"   predict, all-gather + GEMM 8 ranks m_local=2048 k=n=4096: {p:.2f} s CPU (median of {rounds}),"
          f" peak RSS of the largest child {peak / 1024:.0f} MiB")
    print(f"   baseline ptodist check, same file and size:              {c:.3f} s CPU")
    print(f"   predict / check: {p / c:.0f}x")


if __name__ == "__main__":
    main()
