#!/usr/bin/env bash
# Two builds of the executor-overhead benchmark run in turn (A B A B ...), each run's "windows kept"
# wall-time overheads printed on one line per shape: the series of docs/benchmarks.md "Executor
# overhead". Usage: bench/executor_ab.sh BEFORE_BINARY AFTER_BINARY [PAIRS] [-- BENCH ARGS...]
# e.g. bench/executor_ab.sh /tmp/bench_before build/bench/executor_overhead_bench 6 -- --rounds 101
set -euo pipefail
before=$1 after=$2 pairs=${3:-6}
shift $(( $# >= 3 ? 3 : $# ))
[ "${1:-}" = "--" ] && shift
for _ in $(seq "$pairs"); do
  for way in before after; do
    bin=$before
    [ "$way" = after ] && bin=$after
    # The first wall line after each "windows kept" header: one per shape.
    "$bin" "$@" 2>&1 | grep -A1 "windows kept" | grep "wall time" |
      sed -E 's/.*executor median ([0-9.]+) ms \(min ([0-9.]+)\), direct median ([0-9.]+) ms \(min ([0-9.]+)\) -> overhead ([-+0-9.]+%).*/executor \1 (min \2) direct \3 (min \4) ms: \5/' |
      sed "s/^/$way: /"
  done
done
