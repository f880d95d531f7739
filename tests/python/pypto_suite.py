"""Runs PyPTO's distributed test files under pytest on ptodist, one pytest per file, unchanged, and
prints per file: passed / failed / skipped / errors and the first failure's last line (docs/python.md).

    /usr/bin/python3 tests/python/pypto_suite.py PYPTO_GIT_DIR [OUT_DIR] [FILTER]

The files are exported from the bare repository (`git archive HEAD tests/st/distributed
examples/__init__.py examples/distributed examples/runtime`: the example modules some tests import) into OUT_DIR (default /tmp/ptodist-pypto-suite); PyPTO's own tests/st/conftest.py
(its device harness) is not among them, so the fixtures come from ptodist.pytest_plugin.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def export(git_dir, out):
    out.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "HEAD", "tests/st/distributed", "examples/__init__.py",
         "examples/distributed", "examples/runtime"],
        check=True, capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)


def run_file(path, cwd, extra=()):
    # A wide terminal keeps pytest's one-line failure reasons whole.
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"), COLUMNS="400")
    try:
        p = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "ptodist.pytest_plugin", "-rfE",
             *extra, str(path)],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
        )
    except subprocess.TimeoutExpired:
        return {}, "pytest timed out after 900 s"
    out = p.stdout + p.stderr
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped|error|errors|deselected)", out)}
    first = next((l for l in out.splitlines() if l.startswith(("FAILED", "ERROR"))), "")
    if first.startswith("ERROR") and " - " not in first:  # a collection error: its reason is an `E` line
        reason = next((l[1:].strip() for l in out.splitlines() if l.startswith("E   ")), "")
        first += f" - {reason}" if reason else ""
    if not first and p.returncode not in (0, 5):  # no summary: pytest itself failed (a crash, a timeout)
        first = f"pytest exited {p.returncode}: " + (out.strip().splitlines() or [""])[-1]
    return counts, first


def main():
    git_dir = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/tmp/ptodist-pypto-suite")
    pattern = sys.argv[3] if len(sys.argv) > 3 else ""
    export(git_dir, out)
    files = sorted(p for p in (out / "tests/st/distributed").rglob("test_*.py") if pattern in str(p))
    clean = 0
    for f in files:
        counts, first = run_file(f, out)
        bad = counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
        ok = bad == 0 and counts.get("passed", 0) > 0
        clean += ok
        summary = ", ".join(f"{n} {k}" for k, n in counts.items())
        print(f"{'PASS' if ok else 'FAIL'} {f.relative_to(out)}: {summary}" + ("" if ok else f"\n     {first}"),
              flush=True)
    print(f"== {clean}/{len(files)} files pass unchanged (every test passed or skipped, at least one passed)")


if __name__ == "__main__":
    main()
