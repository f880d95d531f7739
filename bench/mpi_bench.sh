#!/usr/bin/env bash
# MPI backend benchmarks (docs/mpi.md, section "Performance"):
#  1. the transport at np = 2: put / put_async bandwidth and notify latency against raw MPI loops
#     (shared memory, then TCP only with osc pt2pt);
#  2. all-gather + GEMM through `ptodist bench` at np = 2 and 4, MPI processes vs in-process ranks.
#   bash bench/mpi_bench.sh [BUILD_DIR]     (needs the ptodist and mpi_transport targets built)
set -euo pipefail

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun="mpirun --oversubscribe"
for exe in "$build/ptodist" "$build/bench/mpi_transport"; do
  [ -x "$exe" ] || { echo "mpi_bench.sh: no $exe; build the ptodist and mpi_transport targets" >&2; exit 1; }
done
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(mpirun --version | head -1)"

echo "== transport, shared memory (default components)"
$mpirun -np 2 "$build/bench/mpi_transport"
echo "== transport, TCP only (--mca btl self,tcp --mca osc pt2pt)"
$mpirun -np 2 --mca btl self,tcp --mca osc pt2pt "$build/bench/mpi_transport"

# The example's defaults (m_local=256, k=n=512), small enough for a 2-core machine.
gemm=("$root/examples/allgather_gemm.py" --warmup 2 --rounds 10)
for np in 2 4; do
  echo "== all-gather + GEMM, $np in-process ranks"
  "$build/ptodist" bench "${gemm[@]}" --ranks "$np" 2>/dev/null
  echo "== all-gather + GEMM, $np MPI processes"
  $mpirun -np "$np" "$build/ptodist" bench "${gemm[@]}" --backend mpi 2>/dev/null
done
