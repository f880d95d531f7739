#!/usr/bin/env bash
# The main job (README's first command, via `make demo`): all-gather + GEMM on N in-process ranks,
# checked against an fp32 reference GEMM, with time per round, GFLOP/s and overlap figures.
# Usage: bash scripts/demo.sh <build-dir> <ranks>. Builds nothing: `make demo` has built it.
set -euo pipefail
build=${1:-build}
ranks=${2:-4}
demo="$build/examples/allgather_gemm_demo"
if [[ ! -x "$demo" ]]; then
  echo "demo.sh: $demo not found; build first (make build)" >&2
  exit 2
fi
"$demo" --ranks "$ranks" --file "$(dirname "$0")/../examples/allgather_gemm.py"
# What the device would do: the timing model's a2a3 figures for the same program (docs/timing.md).
echo "predicted on a2a3 (ptodist predict, virtual time; the CPU figures above are measured):"
"$build/ptodist" predict "$(dirname "$0")/../examples/allgather_gemm.py" --ranks "$ranks" | sed -n '1,/^critical path/p' | grep -v '^critical path' | sed 's/^/  /'
