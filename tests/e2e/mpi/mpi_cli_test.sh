#!/usr/bin/env bash
# Exit statuses of the MPI backend's failure paths: outside mpirun (2), a --ranks that contradicts -np
# (2), a hang, which every process's watchdog reports (3) instead of hanging mpirun, a bad
# PTODIST_MPI_THREADS, PTODIST_MPI_INLINE_BYTES or PTODIST_MPI_SHM (2), and MPI_THREAD_MULTIPLE forced onto osc pt2pt (1, with the fix named).
#   mpi_cli_test.sh PTODIST SOURCE_DIR        (exit 77 when mpirun is absent)
set -uo pipefail

ptodist=$1 root=$2
command -v mpirun >/dev/null || { echo "SKIP: mpirun is not installed"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
expect() {
  local want=$1 what=$2
  shift 2
  timeout 60 "$@" >/dev/null 2>&1
  local got=$?
  if [ "$got" -eq "$want" ]; then echo "ok: $what (exit $got)"; else echo "FAIL: $what: exit $got, want $want"; status=1; fi
}
ring="$root/examples/ring_shuffle_put.py"
expect 2 "--backend mpi outside mpirun" "$ptodist" run "$ring" --backend mpi
expect 2 "--ranks contradicting -np" mpirun -np 2 --oversubscribe "$ptodist" run "$ring" --backend mpi --ranks 3
expect 3 "a hang ends with the watchdog report" mpirun -np 2 --oversubscribe "$ptodist" run \
  "$root/tests/e2e/programs/wait_forever.py" --backend mpi --watchdog 1
expect 2 "a bad PTODIST_MPI_THREADS" mpirun -np 2 --oversubscribe -x PTODIST_MPI_THREADS=many "$ptodist" run "$ring" \
  --backend mpi
expect 2 "a bad PTODIST_MPI_INLINE_BYTES" mpirun -np 2 --oversubscribe -x PTODIST_MPI_INLINE_BYTES=lots "$ptodist" \
  run "$ring" --backend mpi
expect 2 "a bad PTODIST_MPI_SHM" mpirun -np 2 --oversubscribe -x PTODIST_MPI_SHM=yes "$ptodist" \
  run "$ring" --backend mpi
# MPI_THREAD_MULTIPLE forced where osc pt2pt serves the windows: exit 1 and a message naming the fix.
out=$(timeout 60 mpirun -np 2 --oversubscribe --mca btl self,tcp --mca osc pt2pt -x PTODIST_MPI_THREADS=multiple \
  "$ptodist" run "$ring" --backend mpi 2>&1)
got=$?
if [ "$got" -eq 1 ] && grep -q "set PTODIST_MPI_THREADS=serialized" <<<"$out"; then
  echo "ok: osc pt2pt under PTODIST_MPI_THREADS=multiple (exit 1, names the fix)"
else
  echo "FAIL: osc pt2pt under PTODIST_MPI_THREADS=multiple: exit $got, want 1 and the fix; output:"
  echo "$out" | tail -5
  status=1
fi
exit $status
