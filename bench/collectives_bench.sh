#!/usr/bin/env bash
# ptodist's collectives against MPI's own (docs/benchmarks.md, "Collectives against MPI"):
#   bash bench/collectives_bench.sh [BUILD]        (needs the ptodist and mpi_collectives targets)
# For each rank count (COLL_NP, default "2 4"), collective and block size (COLL_SIZES in bytes, default
# 4 KiB, 64 KiB, 1 MiB, 16 MiB), three runs back to back so that load from other jobs hits them alike:
# MPI's collective (bench/mpi_collectives.cpp), ptodist's on the MPI backend (mpirun, one rank per
# process) and ptodist's on the in-process backend, each ITERS calls per round (bench/collectives.py),
# median of COLL_ROUNDS rounds (default 5) after one warm-up. All over shared memory (Open MPI's default
# components on one machine). Prints time per call and ptodist / MPI time ratios, of the medians and of
# the minima (the fastest round: what each costs when the machine's other jobs leave it alone): >= 1 MiB
# the goal is ratio <= 1.25 (at least 0.8x MPI's bandwidth), at 4 KiB ratio <= 2 (at most 2x its latency).
set -euo pipefail

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
sizes=${COLL_SIZES:-4096 65536 1048576 16777216}
nps=${COLL_NP:-2 4}
rounds=${COLL_ROUNDS:-5}
# COLL_PROGRAMS: a subset of bench/collectives.py's programs (default all seven).
# COLL_MSG=1 adds a column: the MPI backend with PTODIST_MPI_SHM=0 (windows reached through MPI's
# one-sided messages, as across machines), run right after the default shared-memory one.
# COLL_INPROC=0 leaves out the in-process column.
msg=${COLL_MSG:-0}
inproc_on=${COLL_INPROC:-1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Idle MPI processes yield the CPU (both sides alike): on a machine shared with other jobs, Open MPI's
# default busy polling starves whichever process the scheduler does not run.
mpirun="mpirun --oversubscribe --mca mpi_yield_when_idle 1"
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

# "MEDIAN MIN" seconds per call of ptodist's collective: round times divided by ITERS (under MPI every
# process prints its own figures: the slowest one counts, as the slowest rank does for MPI).
ptodist_call() {  # NP BACKEND PROGRAM BLOCK ITERS [MPIRUN_FLAGS...]
  local np=$1 backend=$2 prog=$3 block=$4 iters=$5 out
  shift 5
  local args=(bench "$file" --program "$prog" -D "block=$((block / 4))" -D "iters=$iters" --warmup 1
    --rounds "$rounds" --persistent --watchdog 120)
  [ "$prog" = AllToAllV ] && args+=(--in "counts=$tmp/counts$np.npy")
  if [ "$backend" = mpi ]; then
    # Bounded: a run stuck before the watchdog starts (MPI start-up) is an error cell, not a stalled table.
    out=$(timeout 600 $mpirun "$@" -np "$np" "$build/ptodist" "${args[@]}" --backend mpi 2>&1) || { echo "ERROR ERROR"; return; }
  else
    out=$("$build/ptodist" "${args[@]}" --ranks "$np" 2>&1) || { echo "ERROR ERROR"; return; }
  fi
  echo "$out" | awk -v it="$iters" '/^round/ { if ($3 > m) m = $3; if ($6 > n) n = $6 }
    END { if (m > 0) printf "%.9f %.9f\n", m / 1e3 / it, n / 1e3 / it; else print "ERROR ERROR" }'
}

fmt_time() { awk -v s="$1" 'BEGIN { if (s == "ERROR" || s == "") print "error"; else if (s < 1e-3) printf "%.1f us", s * 1e6; else printf "%.2f ms", s * 1e3 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "ERROR" || a == "" || b <= 0) print "-"; else printf "%.2fx", a / b }'; }

echo "machine: $(nproc) CPUs, $(mpirun --version | head -1); $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "time per call, median of $rounds rounds (min); ratio = ptodist / MPI time of the medians (of the minima);"
echo "< 1 is faster than MPI. Goals: ratio <= 1.25 from 1 MiB (0.8x MPI's bandwidth), <= 2 at 4 KiB."
header=(np collective bytes iters "MPI" "ptodist-mpi" ratio)
((msg)) && header+=("mpi, PTODIST_MPI_SHM=0" ratio)
((inproc_on)) && header+=("in-process" ratio)
row() { printf "%-3s %-14s %8s %5s %21s %21s %15s" "${@:1:7}"; shift 7; while (($#)); do printf " %23s %15s" "$1" "$2"; shift 2; done; echo; }
row "${header[@]}"
declare -A mpi_name=([AllReduce]=allreduce [AllGather]=allgather [ReduceScatter]=reduce_scatter
  [AllToAll]=all_to_all [AllToAllV]=all_to_all_v [Broadcast]=broadcast [Barrier]=barrier)
for np in $nps; do
  counts_npy "$np"
  for prog in ${COLL_PROGRAMS:-AllReduce AllGather ReduceScatter AllToAll AllToAllV Broadcast Barrier}; do
    prog_sizes=$sizes
    [ "$prog" = Barrier ] && prog_sizes=4096  # no payload
    for block in $prog_sizes; do
      # 2000 calls at 4 KiB, 32 at 1 MiB, 4 at 16 MiB. A ptodist round also starts a kernel and runs
      # the round's own MPI_Barrier and MPI_Allreduce (0.4 ms at 2 ranks, about 1 ms at 4 on 2 CPUs),
      # which MPI's timed loop does not: enough calls spread that thin (at 200 calls a 2-rank barrier
      # read 2.6 us a call, at 2000 calls 0.6 us).
      iters=$((33554432 / block))
      ((iters > 2000)) && iters=2000
      ((iters < 4)) && iters=4
      read -r ref ref_min < <($mpirun -np "$np" "$build/bench/mpi_collectives" "${mpi_name[$prog]}" "$block" "$iters" \
        "$rounds" 2>/dev/null || echo 0 0)
      read -r mpi mpi_min < <(ptodist_call "$np" mpi "$prog" "$block" "$iters")
      cells=()
      if ((msg)); then
        read -r m m_min < <(ptodist_call "$np" mpi "$prog" "$block" "$iters" -x PTODIST_MPI_SHM=0)
        cells+=("$(fmt_time "$m") ($(fmt_time "$m_min"))" "$(ratio "$m" "$ref") ($(ratio "$m_min" "$ref_min"))")
      fi
      if ((inproc_on)); then
        read -r m m_min < <(ptodist_call "$np" inproc "$prog" "$block" "$iters")
        cells+=("$(fmt_time "$m") ($(fmt_time "$m_min"))" "$(ratio "$m" "$ref") ($(ratio "$m_min" "$ref_min"))")
      fi
      label=$block
      [ "$prog" = Barrier ] && label=-
      row "$np" "${mpi_name[$prog]}" "$label" "$iters" \
        "$(fmt_time "$ref") ($(fmt_time "$ref_min"))" "$(fmt_time "$mpi") ($(fmt_time "$mpi_min"))" \
        "$(ratio "$mpi" "$ref") ($(ratio "$mpi_min" "$ref_min"))" "${cells[@]}"
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
