# Runs a command and fails unless it exits with the expected code: `exit_code.py N cmd args...`.
# Its output passes through so FileCheck can read it.
import subprocess
import sys

expected = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != expected:
    sys.stderr.write(f"exit_code.py: expected exit code {expected}, got {result.returncode}\n")
    sys.exit(1)
