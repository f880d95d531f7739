"""Compiles every kernel file of a directory to PTO (each program of a multi-program file) and fails on
the first file that does not compile, printing its diagnostics. Used by accept_corpus.test."""
import pathlib
import re
import subprocess
import sys


def main(directory):
    count = 0
    for path in sorted(pathlib.Path(directory).glob("*.py")):
        # Without --program, compile takes every program of the file in turn, one header line each.
        r = subprocess.run(["ptodist", "compile", str(path), "--emit=pto"], capture_output=True, text=True)
        programs = len(re.findall(r"^== program ", r.stdout, re.M)) or 1
        if r.returncode != 0 or r.stdout.count("func.func @") < programs:
            sys.stderr.write(f"{path}: exit {r.returncode}\n{r.stderr}")
            return 1
        count += programs
    print(f"compiled {count} programs to PTO")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
