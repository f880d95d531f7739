#!/usr/bin/env bash
# One MPI end-to-end case: runs PROGRAM on NP in-process ranks and under `mpirun -np NP ... --backend
# mpi` (extra mpirun flags after --), checks that every output .npy comes out the same, and checks the
# outputs against a reference computed independently from the inputs (reference.py, plain Python).
#   mpi_e2e_test.sh PTODIST SOURCE_DIR NP CASE [-- MPIRUN_FLAGS...]
# CASE: put | put_async (ring shuffles, byte-identical) | overlap (one 1 MiB put_async per rank, over
# the size a core starts itself over shared memory where the machine has a CPU to spare: the
# communication thread runs it; over osc pt2pt the core starts it) | gemm (all-gather + GEMM, allclose).
# Exit 77 (ctest: skipped) when mpirun is absent.
set -uo pipefail

ptodist=$1 root=$2 np=$3 case=$4
shift 4
[ "${1:-}" = "--" ] && shift
if ! command -v mpirun >/dev/null; then
  echo "SKIP: mpirun is not installed (scripts/install-deps.sh installs OpenMPI)"
  exit 77
fi

case $case in
  put) args=("$root/examples/ring_shuffle_put.py") ;;
  put_async) args=("$root/examples/ring_shuffle_put_async.py" --program ring_put_async) ;;
  overlap) args=("$root/examples/put_async_overlap.py" --program PutAsyncOverlap -D transfer_elems=262144) ;;
  gemm) args=("$root/examples/allgather_gemm.py" -D m_local=128 -D k=256 -D n=256 -D comm_cores=2 -D gemm_cores=2) ;;
  *) echo "unknown case $case"; exit 2 ;;
esac

tmp=$(mktemp -d)
shm_before=$(ls /dev/shm 2>/dev/null | sort)
cleanup() {
  # A killed run can leave its shared-memory segments behind: remove the ones that appeared meanwhile
  # and that no live process maps. Another MPI job on the machine (a benchmark, another checkout's
  # tests) creates segments meanwhile too; removing one of those made its ranks fail to attach and hang
  # in MPI start-up (docs/mpi.md, "Tests and benchmarks").
  comm -13 <(echo "$shm_before") <(ls /dev/shm 2>/dev/null | sort) | grep -E '^(vader_segment|osc_rdma|sm_segment)' |
    while read -r f; do
      grep -qsF "/dev/shm/$f" /proc/[0-9]*/maps || rm -f "/dev/shm/$f"
    done
  rm -rf "$tmp"
}
trap cleanup EXIT

reference="$(dirname "$0")/reference.py"
mkdir -p "$tmp/in"
mapfile -t in_flags < <(python3 "$reference" inputs "$case" "$np" "$tmp/in") || { echo "FAIL: inputs"; exit 1; }
for f in "${in_flags[@]}"; do args+=($f); done

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$ptodist" run "${args[@]}" --ranks "$np" --out-dir "$tmp/inproc" || { echo "FAIL: in-process run"; exit 1; }
timeout 100 mpirun -np "$np" --oversubscribe "$@" "$ptodist" run "${args[@]}" --backend mpi --watchdog 20 \
  --out-dir "$tmp/mpi"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: mpirun exited with $rc"; exit 1; }

status=0
for f in "$tmp"/inproc/*.npy; do
  name=$(basename "$f")
  [ -f "$tmp/mpi/$name" ] || { echo "FAIL: mpi run wrote no $name"; status=1; continue; }
  python3 "$(dirname "$0")/compare_npy.py" $([ "$case" = gemm ] && echo --allclose) "$f" "$tmp/mpi/$name" || status=1
done
python3 "$reference" check "$case" "$np" "$tmp/in" "$tmp/inproc" || status=1
[ $status -eq 0 ] && echo "PASS: $case at np=$np $*"
exit $status
