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
if [ "$found" -eq 0 ]; then
  echo "run.sh: no *_bench executables in $build/bench" >&2
  exit 1
fi
