"""Runs PyPTO's single-device system-test files (tests/st/runtime, tests/st/examples) under pytest on
ptodist, one pytest per file, unchanged, and prints per file: passed / failed / skipped / errors and the
first failure's reason, then the failing files grouped by that reason (docs/python.md).

    /usr/bin/python3 tests/python/pypto_st_suite.py PYPTO_GIT_DIR [OUT_DIR] [FILTER]

The files are exported from the bare repository with PyPTO's harness (tests/st/harness) and examples
package (which some tests import) into OUT_DIR (default /tmp/ptodist-pypto-st-suite), and run with
`--noconftest`: PyPTO's tests/st/conftest.py drives its device; ptodist.pytest_plugin gives the fixtures
(`test_runner`, `test_config`) and puts tests/st on sys.path. Each runs as PyPTO's CI runs it,
`--platform a2a3`, with PTODIST_PLATFORM (default "ptodist"; "ptodist-check" for check mode) standing
in for PyPTO's platform names (docs/python.md), so a file that reads `--platform` itself finds a name
it knows.
"""

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from pypto_suite import run_file

SUITES = ("tests/st/runtime", "tests/st/examples")


def export(git_dir, out):
    out.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "HEAD", "tests/st/harness", *SUITES, "examples"],
        check=True, capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)


def reason_of(first):
    """The failure reason with the test's own words, paths, positions and numbers taken out, so files
    that fail for one reason group together."""
    text = first.split(" - ", 1)[-1]
    located = re.search(r"\berror: (.*)", text)
    if located:
        text = located.group(1)
    text = re.sub(r"'[^']*\.py'|\S+\.py(:\d+)*", "FILE", text)
    return re.sub(r"\d+", "N", text)[:160]


def main():
    git_dir = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/tmp/ptodist-pypto-st-suite")
    pattern = sys.argv[3] if len(sys.argv) > 3 else ""
    export(git_dir, out)
    files = sorted(p for s in SUITES for p in (out / s).rglob("test_*.py") if pattern in str(p))
    clean, reasons = 0, Counter()
    os.environ.setdefault("PTODIST_PLATFORM", "ptodist")
    for f in files:
        counts, first = run_file(f, out, extra=["--noconftest", "--platform", "a2a3"])
        bad = counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
        ok = bad == 0 and counts.get("passed", 0) > 0
        clean += ok
        if not ok:
            reasons[reason_of(first) if first else "no test passed or ran"] += 1
        summary = ", ".join(f"{n} {k}" for k, n in counts.items())
        print(f"{'PASS' if ok else 'FAIL'} {f.relative_to(out)}: {summary}" + ("" if ok else f"\n     {first}"),
              flush=True)
    print("== first failure reasons, by files:")
    for reason, n in reasons.most_common():
        print(f"{n:4d}  {reason}")
    print(f"== {clean}/{len(files)} files pass unchanged (every test passed or skipped, at least one passed)")


if __name__ == "__main__":
    main()
