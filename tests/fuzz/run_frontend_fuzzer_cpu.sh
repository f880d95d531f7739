#!/usr/bin/env bash
# Runs the front-end libFuzzer target (run_frontend_fuzzer.sh) until it has used CPU_SECONDS of CPU,
# then interrupts it (SIGINT: libFuzzer prints its final statistics). libFuzzer's own limit is wall
# time, which on a shared machine can be mostly waiting; a campaign's size is its CPU.
#   run_frontend_fuzzer_cpu.sh BUILD CPU_SECONDS [LIBFUZZER_FLAGS...]
set -uo pipefail
build=$1 cpu_seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
# A generous wall limit (4x the CPU asked) and per-input timeout: both are wall time.
bash "$here/run_frontend_fuzzer.sh" "$build" $((cpu_seconds * 4)) -timeout=300 "$@" &
fuzzer=$!  # run_frontend_fuzzer.sh execs the fuzzer: same process
hz=$(getconf CLK_TCK)
interrupted=0
while kill -0 "$fuzzer" 2>/dev/null; do
  read -r -a stat < "/proc/$fuzzer/stat" || break
  # Fields 14 and 15 (utime, stime), in clock ticks, of this process alone.
  if (( (stat[13] + stat[14]) / hz >= cpu_seconds )); then
    echo "run_frontend_fuzzer_cpu.sh: ${cpu_seconds} s of CPU used; interrupting" >&2
    kill -INT "$fuzzer"
    interrupted=1
    break
  fi
  sleep 5
done
wait "$fuzzer"
status=$?
# libFuzzer exits 72 when interrupted: here that is the budget spent, not a finding.
(( interrupted && status == 72 )) && exit 0
exit "$status"
