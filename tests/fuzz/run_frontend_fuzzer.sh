#!/usr/bin/env bash
# Runs the libFuzzer target of the front end and compile pipeline (tests/fuzz/frontend_fuzzer.cpp) for
# SECONDS, seeded with every kernel file of examples/ and tests/, keeping its corpus in BUILD/corpus
# between runs. A finding is written to BUILD/findings/ and ends the run with a non-zero status.
#   run_frontend_fuzzer.sh BUILD SECONDS [LIBFUZZER_FLAGS...]
set -euo pipefail
build=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build/corpus" "$build/seeds" "$build/findings"
# Seeds flattened into one folder (libFuzzer reads folders, not trees); names keep the origin.
# Only bash builtins per file: under `nice -n 19` on a busy machine every fork counts.
find "$root/examples" "$root/tests" -name '*.py' -not -path '*/fuzz/*' | while read -r f; do
  rel=${f#"$root"/}
  seed="$build/seeds/${rel//\//_}"
  [ "$seed" -nt "$f" ] || cp "$f" "$seed"
done
# -timeout: an input that takes 60 s is a hang (the largest seed, 16 kB, takes 0.6 s of CPU; the limit
# is wall time, and under nice -n 19 on a busy machine that seed once took 13 s);
# -rss_limit_mb: a memory blow-up is a finding too.
exec "$build/tests/fuzz/frontend_fuzzer" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 \
  -max_len=16384 -dict="$root/tests/fuzz/frontend.dict" -artifact_prefix="$build/findings/" \
  -print_final_stats=1 "$@" "$build/corpus" "$build/seeds"
