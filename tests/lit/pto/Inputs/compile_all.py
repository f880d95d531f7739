"""Compiles every kernel file of a directory to PTO (each program of a multi-program file) and fails on
the first file that does not compile, printing its diagnostics. Used by accept_corpus.test."""
import pathlib
import re
import subprocess
import sys


def compile_file(path, program=None):
    cmd = ["ptodist", "compile", str(path), "--emit=pto"] + (["--program", program] if program else [])
    return subprocess.run(cmd, capture_output=True, text=True)


def main(directory):
    count = 0
    for path in sorted(pathlib.Path(directory).glob("*.py")):
        r = compile_file(path)
        several = re.search(r"several programs \(([^)]*)\)", r.stderr)
        runs = [compile_file(path, p.strip()) for p in several.group(1).split(",")] if several else [r]
        for run in runs:
            if run.returncode != 0 or "func.func @" not in run.stdout:
                sys.stderr.write(f"{path}: exit {run.returncode}\n{run.stderr}")
                return 1
            count += 1
    print(f"compiled {count} programs to PTO")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
