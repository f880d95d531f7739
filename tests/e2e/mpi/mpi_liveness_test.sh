#!/usr/bin/env bash
# MPI liveness: a rank whose process is stopped (SIGSTOP) mid-run is named by the other rank within the
# watchdog time, and the job ends with the watchdog's exit code (3) instead of the others spinning in
# an MPI call. Two cases, rank 1 stopped two seconds in each time:
#  - both ranks compute a long scalar loop (rank 0 notices while computing);
#  - rank 0 has finished its kernel and waits for rank 1 at the end of the round: it must also not
#    spin meanwhile (its CPU time while it waits is measured).
# And a rank that never arrives at MPI start-up (rank 1 sleeps before it starts ptodist): rank 0,
# held in MPI_Init_thread, names it within the watchdog time and exits 3.
#   mpi_liveness_test.sh PTODIST SOURCE_DIR        (exit 77 when mpirun is absent)
set -uo pipefail
ptodist=$1 root=$2
command -v mpirun >/dev/null || { echo "SKIP: mpirun is not installed"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
stopped=
trap 'kill -CONT $stopped 2>/dev/null; rm -rf "$tmp"' EXIT
status=0

# The pid of rank R of the job launched as $launcher: the child of its mpirun whose environment says
# OMPI_COMM_WORLD_RANK=R (other jobs on the machine may run ranks too).
rank_pid() {
  local pid
  for pid in $(pgrep -P "$(pgrep -P "$launcher" | head -1)" 2>/dev/null); do
    if tr '\0' '\n' </proc/$pid/environ 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then echo "$pid"; fi
  done
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# stop_rank1 NAME WATCHDOG MEASURE_CPU -- PTODIST_RUN_ARGS...
stop_rank1() {
  local name=$1 watchdog=$2 measure=$3
  shift 4
  timeout 60 mpirun -np 2 --oversubscribe "$ptodist" run "$@" --backend mpi --watchdog "$watchdog" \
    >"$tmp/out" 2>"$tmp/err" &
  launcher=$!
  local waiter=
  for _ in $(seq 100); do
    stopped=$(rank_pid 1) waiter=$(rank_pid 0)
    [ -n "$stopped" ] && [ -n "$waiter" ] && break
    sleep 0.1
  done
  [ -n "$stopped" ] || { echo "FAIL($name): rank 1 never started"; cat "$tmp/err"; status=1; return; }
  sleep 2
  local start ticks0 ticks1 took got
  start=$(date +%s.%N)
  kill -STOP "$stopped"
  if [ "$measure" = yes ]; then
    ticks0=$(cpu_ticks "$waiter")
    sleep 2
    ticks1=$(cpu_ticks "$waiter")
    # Two seconds of waiting: at most a quarter of one core (50 ticks of 100 per second).
    local used=$((ticks1 - ticks0))
    echo "$name: rank 0 used $used ticks (1/100 s) of CPU in 2 s waiting for the stopped rank 1"
    if [ "$used" -gt 50 ]; then echo "FAIL($name): rank 0 spins while it waits"; status=1; fi
  fi
  wait $launcher
  got=$?
  kill -CONT "$stopped" 2>/dev/null
  took=$(echo "$(date +%s.%N) - $start" | bc)
  if [ "$got" -ne 3 ]; then echo "FAIL($name): exit $got, want 3"; cat "$tmp/err"; status=1; fi
  if ! grep -q "watchdog: rank 0: rank 1 has not responded for" "$tmp/err"; then
    echo "FAIL($name): no report naming rank 1:"; cat "$tmp/err"; status=1
  fi
  # The watchdog time plus the launcher's teardown; far below the 60 s it would spin otherwise.
  if (( $(echo "$took > $watchdog + 15" | bc) )); then echo "FAIL($name): took $took s"; status=1; fi
  echo "$name: rank 1 named by rank 0 after $took s (watchdog $watchdog s, exit $got)"
}

stop_rank1 computing 2 no -- "$root/tests/e2e/programs/scalar_loop.py" -D n=2000000000
# Rank 0 loops 5 times, rank 1 two billion times.
/usr/bin/python3 - "$tmp/x.npy" <<'PY' 2>/dev/null || exit 77
import sys, numpy as np
x = np.zeros((2, 1, 4), dtype=np.int64); x[0, 0, 0] = 5; x[1, 0, 0] = 2_000_000_000
np.save(sys.argv[1], x)
PY
stop_rank1 waiting 5 yes -- "$root/tests/e2e/programs/uneven_loop.py" --in "x=$tmp/x.npy"

# Rank 1 starts ptodist only after 60 s; rank 0 must name it after its watchdog time, which start-up
# raises to 10 s (MPI's start-up alone takes seconds on a loaded machine).
start=$(date +%s.%N)
timeout 60 mpirun -np 2 --oversubscribe bash -c \
  '[ "$OMPI_COMM_WORLD_RANK" = 1 ] && sleep 60; exec "$0" "$@"' \
  "$ptodist" run "$root/tests/e2e/programs/scalar_loop.py" -D n=10 --backend mpi --watchdog 2 >"$tmp/out" 2>"$tmp/err"
got=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
if [ "$got" -ne 3 ]; then echo "FAIL(start-up): exit $got, want 3"; cat "$tmp/err"; status=1; fi
if ! grep -q "watchdog: rank 0: MPI start-up has not completed after 10.0 s: rank 1 has not arrived" "$tmp/err"; then
  echo "FAIL(start-up): no report naming rank 1:"; cat "$tmp/err"; status=1
fi
if (( $(echo "$took > 10 + 15" | bc) )); then echo "FAIL(start-up): took $took s"; status=1; fi
echo "start-up: rank 1 named by rank 0 after $took s (watchdog 2 s, start-up at least 10 s, exit $got)"

[ $status -eq 0 ] && echo "ok: a stopped rank is named within the watchdog time, without spinning"
exit $status
