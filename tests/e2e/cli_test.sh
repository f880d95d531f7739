#!/usr/bin/env bash
# `ptodist run` and `ptodist bench` from the command line: outputs as .npy, exit codes 0/1/2/3.
# Usage: cli_test.sh <ptodist> <source-dir>
set -u
ptodist=$1
root=$2
source "$(dirname "$0")/expect.sh"

# Inputs and the independent reference (y[r] = x[(r - 1) % N], z = (x + x) * x) from reference.py.
reference="$root/tests/e2e/mpi/reference.py"
mkdir -p "$tmp/in"
python3 "$reference" inputs put 4 "$tmp/in" >/dev/null
expect 0 "run ring shuffle, outputs written" "$ptodist" run "$root/examples/ring_shuffle_put.py" --ranks 4 --in "x=$tmp/in/x.npy" --out-dir "$tmp/ring"
[[ -f "$tmp/ring/y.npy" ]] || { echo "FAIL: y.npy not written"; fail=1; }
"$ptodist" run "$root/examples/ring_shuffle_put_async.py" --program ring_put_async --ranks 4 --in "x=$tmp/in/x.npy" --out-dir "$tmp/async" 2>/dev/null
python3 "$reference" check put 4 "$tmp/in" "$tmp/ring" || fail=1
python3 "$reference" check put_async 4 "$tmp/in" "$tmp/async" || fail=1

expect 2 "rank count contradicting the host shape" "$ptodist" run "$root/examples/ring_shuffle_put.py" --ranks 2 --in "x=$tmp/ring/y.npy"
grep -q "per-rank slices" "$tmp/err" || { echo "FAIL: no one-line reason"; fail=1; }
expect 2 "dtype mismatch" "$ptodist" run "$root/examples/allgather_gemm.py" --ranks 4 --in "weight=$tmp/ring/y.npy"
expect 2 "unknown input name" "$ptodist" run "$root/examples/ring_shuffle_put.py" --ranks 2 --in nope=zeros
expect 3 "watchdog reports a hang" "$ptodist" run "$root/tests/e2e/programs/wait_forever.py" --ranks 2 --watchdog 0.5
grep -q "blocked in pld.system.wait" "$tmp/err" || { echo "FAIL: no blocked-core report"; fail=1; }
expect 1 "over the core budget" "$ptodist" run "$root/tests/e2e/programs/over_budget.py" --ranks 2 --profile "$root/profiles/cpu.json"
expect 1 "division by zero in a kernel's scalar arithmetic" "$ptodist" run "$root/tests/e2e/programs/divide_by_loop_index.py" --ranks 2
grep -q "divide_by_loop_index.py:13:21: error: integer division by zero" "$tmp/err" || { echo "FAIL: no located division error"; fail=1; }
expect 0 "bench" "$ptodist" bench "$root/examples/ring_shuffle_put_async.py" --program ring_put_async --ranks 2 --warmup 1 --rounds 3
grep -q "median" "$tmp/out" || { echo "FAIL: bench printed no statistics"; fail=1; }
exit $fail
