#!/usr/bin/env bash
# ptodist's collectives against MPI's own (docs/benchmarks.md, "Collectives against MPI"):
#   bash bench/collectives_bench.sh [BUILD]        (needs the ptodist and mpi_collectives targets)
# For each rank count (COLL_NP, default "2 4"), collective and block size (COLL_SIZES in bytes, default
# 4 KiB, 64 KiB, 1 MiB, 16 MiB), three runs back to back so that load from other jobs hits them alike:
# MPI's collective (bench/mpi_collectives.cpp), ptodist's on the MPI backend (mpirun, one rank per
# process) and ptodist's on the in-process backend, each ITERS calls per round (bench/collectives.py),
# median of COLL_ROUNDS rounds (default 7) after one warm-up. All over shared memory (Open MPI's default
# components on one machine). Prints time per call and ptodist / MPI time ratios: >= 1 MiB the goal is
# ratio <= 1.25 (at least 0.8x MPI's bandwidth), at 4 KiB ratio <= 2 (at most 2x its latency).
set -euo pipefail

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${COLL_SIZES:-4096 65536 1048576 16777216}
nps=${COLL_NP:-2 4}
rounds=${COLL_ROUNDS:-7}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun="mpirun --oversubscribe"
for exe in "$build/ptodist" "$build/bench/mpi_collectives"; do
  [ -x "$exe" ] || { echo "collectives_bench.sh: no $exe; build the ptodist and mpi_collectives targets" >&2; exit 1; }
done
file="$root/bench/collectives.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# all_to_all_v's send counts: one valid row to every peer (an int32 .npy of ones, [NP, NP, 1]).
counts_npy() {  # NP
  python3 - "$1" "$tmp/counts$1.npy" <<'EOF'
import struct, sys
n = int(sys.argv[1])
header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d, %d, 1), }" % (n, n)
header += " " * (63 - (len(header) + 10) % 64) + "\n"
with open(sys.argv[2], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<%di" % (n * n), *([1] * n * n)))
EOF
}

# Seconds per call of ptodist's collective: the median round divided by ITERS (under MPI every process
# prints its own median: the slowest one counts, as the slowest rank does for MPI).
ptodist_call() {  # NP BACKEND PROGRAM BLOCK ITERS
  local np=$1 backend=$2 prog=$3 block=$4 iters=$5 out
  local args=(bench "$file" --program "$prog" -D "block=$((block / 4))" -D "iters=$iters" --warmup 1
    --rounds "$rounds" --persistent --watchdog 120)
  [ "$prog" = AllToAllV ] && args+=(--in "counts=$tmp/counts$np.npy")
  if [ "$backend" = mpi ]; then
    out=$($mpirun -np "$np" "$build/ptodist" "${args[@]}" --backend mpi 2>&1) || { echo "ERROR"; return; }
  else
    out=$("$build/ptodist" "${args[@]}" --ranks "$np" 2>&1) || { echo "ERROR"; return; }
  fi
  echo "$out" | awk -v it="$iters" '/^round/ && $3 > m { m = $3 } END { if (m > 0) printf "%.9f\n", m / 1e3 / it; else print "ERROR" }'
}

fmt_time() { awk -v s="$1" 'BEGIN { if (s == "ERROR" || s == "") print "error"; else if (s < 1e-3) printf "%.1f us", s * 1e6; else printf "%.2f ms", s * 1e3 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "ERROR" || a == "" || b <= 0) print "-"; else printf "%.2fx", a / b }'; }

echo "machine: $(nproc) CPUs, $(mpirun --version | head -1); $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "time per call (median of $rounds rounds); ratio = ptodist / MPI time (< 1 is faster than MPI)"
printf "%-3s %-15s %9s %6s %11s %11s %7s %11s %7s\n" np collective block iters MPI "ptodist-mpi" ratio "in-process" ratio
declare -A mpi_name=([AllReduce]=allreduce [AllGather]=allgather [ReduceScatter]=reduce_scatter
  [AllToAll]=all_to_all [AllToAllV]=all_to_all_v [Broadcast]=broadcast [Barrier]=barrier)
for np in $nps; do
  counts_npy "$np"
  for prog in AllReduce AllGather ReduceScatter AllToAll AllToAllV Broadcast Barrier; do
    prog_sizes=$sizes
    [ "$prog" = Barrier ] && prog_sizes=4096  # no payload
    for block in $prog_sizes; do
      iters=$((8388608 / block))  # 100 calls up to 64 KiB, 8 at 1 MiB, 4 at 16 MiB
      ((iters > 100)) && iters=100
      ((iters < 4)) && iters=4
      ref=$($mpirun -np "$np" "$build/bench/mpi_collectives" "${mpi_name[$prog]}" "$block" "$iters" "$rounds" 2>/dev/null || echo 0)
      ours_mpi=$(ptodist_call "$np" mpi "$prog" "$block" "$iters")
      ours_inproc=$(ptodist_call "$np" inproc "$prog" "$block" "$iters")
      label=$block
      [ "$prog" = Barrier ] && label=-
      printf "%-3s %-15s %9s %6s %11s %11s %7s %11s %7s\n" "$np" "${mpi_name[$prog]}" "$label" "$iters" \
        "$(fmt_time "$ref")" "$(fmt_time "$ours_mpi")" "$(ratio "$ours_mpi" "$ref")" \
        "$(fmt_time "$ours_inproc")" "$(ratio "$ours_inproc" "$ref")"
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
