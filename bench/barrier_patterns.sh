#!/usr/bin/env bash
# The mesh and the central barrier (bench/barrier_patterns.py) at 4 ranks, in process and on the MPI
# backend, PAIRS runs each in alternating order (mesh first, then central first, ...), so that load from
# other jobs and the position in the sequence hit both alike. Prints the slowest rank's median time per
# barrier of each run (2000 barriers a round, 5 rounds after a warm-up).
#   bash bench/barrier_patterns.sh [BUILD] [PAIRS]
set -euo pipefail
build=${1:-build}
pairs=${2:-8}
file="$(cd "$(dirname "$0")" && pwd)/barrier_patterns.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
call() {  # BACKEND PROGRAM
  local args=(bench "$file" --program "$2" -D iters=2000 --warmup 1 --rounds 5 --persistent --no-predict --watchdog 120)
  if [ "$1" = mpi ]; then
    timeout 300 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 "$build/ptodist" "${args[@]}" --backend mpi 2>&1
  else
    "$build/ptodist" "${args[@]}" --ranks 4 2>&1
  fi | awk '/^round/ { if ($3 > m) m = $3 } END { if (m > 0) printf "%.1f", m * 1e3 / 2000; else printf "error" }'
}
echo "load average $(cut -d' ' -f1-3 /proc/loadavg); us per barrier, run by run"
for backend in inproc mpi; do
  mesh=() central=()
  for ((i = 0; i < pairs; ++i)); do
    if ((i % 2 == 0)); then m=$(call $backend Mesh); c=$(call $backend Central)
    else c=$(call $backend Central); m=$(call $backend Mesh); fi
    mesh+=("$m") central+=("$c")
  done
  echo "$backend mesh:    ${mesh[*]}"
  echo "$backend central: ${central[*]}"
done
