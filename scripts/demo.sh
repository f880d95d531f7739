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
exec "$demo" --ranks "$ranks" --file "$(dirname "$0")/../examples/allgather_gemm.py"
