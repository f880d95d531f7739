#!/usr/bin/env bash
# `ptodist run/bench --mode check` from the command line: the examples pass several seeds with the
# outputs of fast mode, a deadlock is a report with exit 3 and the seed, bad flags are exit 2.
# Usage: check_cli_test.sh <ptodist> <source-dir>
set -u
ptodist=$1
root=$2
source "$(dirname "$0")/expect.sh"
same_outputs() {  # same_outputs <description> <dir-a> <dir-b>
  local f
  for f in "$2"/*.npy; do
    cmp -s "$f" "$3/$(basename "$f")" || { echo "FAIL: $1: $(basename "$f") differs from fast mode"; fail=1; return; }
  done
  echo "ok: $1: outputs identical to fast mode"
}

# Fast mode's outputs are also checked against an independent reference (reference.py).
reference="$root/tests/e2e/mpi/reference.py"
ring=("$root/examples/ring_shuffle_put_async.py" --program ring_put_async)
gemm=("$root/examples/allgather_gemm.py" -D m_local=64 -D k=128 -D n=128 -D m_tile=32 -D k_tile=64 -D n_tile=64)
for n in 2 4; do
  mkdir -p "$tmp/in$n"
  python3 "$reference" inputs put_async $n "$tmp/in$n" >/dev/null
  python3 "$reference" inputs gemm $n "$tmp/in$n" 64 128 128 >/dev/null
  ring+=(--in "x=$tmp/in$n/x.npy")
  gemm+=(--in "inputs=$tmp/in$n/inputs.npy" --in "weight=$tmp/in$n/weight.npy")
  "$ptodist" run "${ring[@]}" --ranks $n --out-dir "$tmp/ring_fast$n" 2>/dev/null
  expect 0 "ring_put_async --ranks $n, 5 seeds" "$ptodist" run "${ring[@]}" --ranks $n --mode check --runs 5 --out-dir "$tmp/ring_check$n"
  grep -q "check mode: 5 run(s), seeds 1..5: no hazard" "$tmp/out" || { echo "FAIL: no summary"; cat "$tmp/out"; fail=1; }
  same_outputs "ring_put_async --ranks $n" "$tmp/ring_fast$n" "$tmp/ring_check$n"
  python3 "$reference" check put_async $n "$tmp/in$n" "$tmp/ring_fast$n" || fail=1
  "$ptodist" run "${gemm[@]}" --ranks $n --out-dir "$tmp/gemm_fast$n" 2>/dev/null
  expect 0 "allgather_gemm --ranks $n, 5 seeds" "$ptodist" run "${gemm[@]}" --ranks $n --mode check --seed 11 --runs 5 --out-dir "$tmp/gemm_check$n"
  same_outputs "allgather_gemm --ranks $n" "$tmp/gemm_fast$n" "$tmp/gemm_check$n"
  python3 "$reference" check gemm $n "$tmp/in$n" "$tmp/gemm_fast$n" 64 128 128 || fail=1
  ring=("${ring[@]:0:3}")
  gemm=("${gemm[@]:0:13}")
done

expect 3 "a wait nobody answers is a deadlock, not a watchdog hang" "$ptodist" run "$root/tests/e2e/programs/wait_forever.py" --ranks 2 --mode check --seed 4
grep -q "error: check: deadlock: every core is blocked and no transfer is in flight" "$tmp/err" || { echo "FAIL: no deadlock report"; cat "$tmp/err"; fail=1; }
grep -q "^check mode: seed 4$" "$tmp/err" || { echo "FAIL: the seed is not named"; fail=1; }
expect 0 "bench --mode check" "$ptodist" bench "${ring[@]}" --ranks 2 --mode check --seed 2 --warmup 1 --rounds 2
grep -q "check mode: seed 2, 3 rounds: no hazard" "$tmp/out" || { echo "FAIL: bench printed no check summary"; fail=1; }

expect 2 "--runs 0" "$ptodist" run "${ring[@]}" --ranks 2 --mode check --runs 0
expect 2 "--seed without --mode check" "$ptodist" run "${ring[@]}" --ranks 2 --seed 3
expect 2 "--runs without --mode check" "$ptodist" run "${ring[@]}" --ranks 2 --runs 3
expect 2 "--mode check with --backend mpi" "$ptodist" run "${ring[@]}" --ranks 2 --mode check --backend mpi
grep -q "cannot be combined with --backend mpi" "$tmp/err" || { echo "FAIL: no one-line reason"; cat "$tmp/err"; fail=1; }
expect 2 "unknown --no-pass" "$ptodist" run "${ring[@]}" --ranks 2 --no-pass no-such-pass
expect 2 "unknown --mode" "$ptodist" run "${ring[@]}" --ranks 2 --mode slow
expect 0 "--no-pass in fast mode" "$ptodist" run "${ring[@]}" --ranks 2 --no-pass insert-comm-fence
exit $fail
