#!/usr/bin/env bash
# MPI backend benchmarks (docs/mpi.md, section "Performance"):
#  1. the transport at np = 2: put / put_async bandwidth and notify latency against raw MPI loops
#     (shared memory: ptodist's windows as MPI windows, then as its shared-memory mapping; then TCP
#     only with osc pt2pt);
#  2. all-gather + GEMM through `ptodist bench` at np = 2 and 4, MPI processes vs in-process ranks.
#   bash bench/mpi_bench.sh [BUILD_DIR [BEFORE_BUILD_DIR]]   (needs the ptodist and mpi_transport targets)
# RUNS=N repeats the transport part N times (default 1). With BEFORE_BUILD_DIR (another build, e.g.
# of an older commit) each repetition runs that build's transport benchmark first, then this one's,
# so load from other jobs hits both alike; the GEMM part then runs for this build only.
# TRANSPORT_ONLY=1 skips the GEMM part.
set -euo pipefail

build=${1:-build}
before=${2:-}
runs=${RUNS:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun="mpirun --oversubscribe"
for exe in "$build/ptodist" "$build/bench/mpi_transport" ${before:+"$before/bench/mpi_transport"}; do
  [ -x "$exe" ] || { echo "mpi_bench.sh: no $exe; build the ptodist and mpi_transport targets" >&2; exit 1; }
done
echo "machine: $(nproc) cores; $(mpirun --version | head -1)"

load() { echo "[$(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)]"; }
# The raw loops use MPI_Win_allocate windows and MPI's one-sided calls. Like for like, ptodist's side
# runs with PTODIST_MPI_SHM=0 (its windows are MPI windows too); then once with its default on one
# machine, windows mapped into shared memory (a put is a memcpy, a notify an atomic: docs/mpi.md).
transport() {  # BUILD_DIR LABEL
  echo "== $2: transport, shared memory (default components), PTODIST_MPI_SHM=0 $(load)"
  $mpirun -np 2 -x PTODIST_MPI_SHM=0 "$1/bench/mpi_transport"
  echo "== $2: transport, shared memory (default components), ptodist's shared-memory windows $(load)"
  $mpirun -np 2 "$1/bench/mpi_transport"
  echo "== $2: transport, TCP only (--mca btl self,tcp --mca osc pt2pt) $(load)"
  $mpirun -np 2 --mca btl self,tcp --mca osc pt2pt "$1/bench/mpi_transport"
}
for ((r = 1; r <= runs; ++r)); do
  [ -n "$before" ] && transport "$before" "run $r, before ($before)"
  transport "$build" "run $r${before:+, after ($build)}"
done
[ "${TRANSPORT_ONLY:-0}" = 1 ] && exit 0

# The example's defaults (m_local=256, k=n=512), small enough for a 2-core machine.
gemm=("$root/examples/allgather_gemm.py" --warmup 2 --rounds 10)
for np in 2 4; do
  echo "== all-gather + GEMM, $np in-process ranks $(load)"
  "$build/ptodist" bench "${gemm[@]}" --ranks "$np" 2>/dev/null
  echo "== all-gather + GEMM, $np MPI processes $(load)"
  $mpirun -np "$np" "$build/ptodist" bench "${gemm[@]}" --backend mpi 2>/dev/null
done
