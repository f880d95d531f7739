"""Runs a command and succeeds only if it exits with exactly the given code.

Usage: expect_exit.py CODE COMMAND [ARGS...]. The command's stdout and stderr are both copied to
stdout (stderr after stdout), so one FileCheck reads the report whatever stream it went to. lit's
`not` cannot tell exit code 3 (a hazard) from 1 (a program error), hence this wrapper.
"""

import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: expect_exit.py CODE COMMAND [ARGS...]\n")
        return 2
    want = int(sys.argv[1])
    try:
        proc = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except subprocess.TimeoutExpired:
        sys.stderr.write("expect_exit: %s timed out after 300 s\n" % sys.argv[2])
        return 1
    sys.stdout.buffer.write(proc.stdout)
    sys.stdout.buffer.write(proc.stderr)
    sys.stdout.flush()
    if proc.returncode != want:
        sys.stderr.write("expect_exit: %s exited with %d, expected %d\n" % (sys.argv[2], proc.returncode, want))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
