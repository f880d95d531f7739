#!/usr/bin/env bash
# Exit statuses of the MPI backend's failure paths: outside mpirun (2), a --ranks that contradicts -np
# (2), and a hang, which every process's watchdog reports (3) instead of hanging mpirun.
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
exit $status
