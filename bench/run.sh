#!/usr/bin/env bash
# Runs every benchmark built under BUILD/bench (default: build) and keeps a JSON copy of each result
# beside it (BUILD/bench/<name>.json). Extra arguments go to every benchmark, e.g.
#   bash bench/run.sh build --benchmark_filter=Matmul
set -euo pipefail

build=${1:-build}
shift || true
if [ ! -d "$build/bench" ]; then
  echo "run.sh: no $build/bench; build first (make build)" >&2
  exit 1
fi

found=0
for exe in "$build"/bench/*_bench; do
  [ -x "$exe" ] || continue
  found=1
  name=$(basename "$exe")
  echo "== $name"
  "$exe" --benchmark_out="$build/bench/$name.json" --benchmark_out_format=json "$@"
done
# All-gather + GEMM three ways in one run (overlapped, serialized, memcpy + OpenBLAS baseline), with
# ratios against the baseline: the demo driver measures all three on the same thread count.
demo="$build/examples/allgather_gemm_demo"
if [ -x "$demo" ]; then
  echo "== allgather_gemm_demo (4 ranks, 10 rounds)"
  "$demo" --ranks 4 --warmup 2 --rounds 10 --file "$(dirname "$0")/../examples/allgather_gemm.py"
fi
if [ "$found" -eq 0 ]; then
  echo "run.sh: no *_bench executables in $build/bench" >&2
  exit 1
fi
