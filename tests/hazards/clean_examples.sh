#!/usr/bin/env bash
# The clean side of check mode: every correct example program runs in `--mode check --runs 50` at 2
# and 4 ranks with no hazard report and exit 0. Usage: clean_examples.sh PTODIST SOURCE_DIR [RUNS]
set -u
ptodist=$1
src=$2
runs=${3:-50}
ex=$src/examples
failed=0

# The examples at their default sizes, except allgather_gemm: small sizes (every dim still divides
# into chunks and tiles) so 50 seeds are quick.
small_gemm=(-D m_local=32 -D k=64 -D n=64 -D m_tile=16 -D k_tile=32 -D n_tile=32 -D comm_cores=2 -D gemm_cores=2)

check_clean() {  # check_clean RANKS FILE PROGRAM [FLAGS...]
  local ranks=$1 file=$2 program=$3
  shift 3
  local start=$SECONDS out rc
  out=$("$ptodist" run "$ex/$file" --program "$program" --ranks "$ranks" --mode check --seed 1 \
    --runs "$runs" "$@" 2>&1)
  rc=$?
  if [[ $rc -ne 0 ]] || ! grep -q "no hazard" <<<"$out"; then
    echo "FAIL: $file --program $program --ranks $ranks: exit $rc"
    echo "$out" | tail -n 30
    failed=1
  else
    echo "ok: $file --program $program --ranks $ranks ($runs seeds, $((SECONDS - start)) s)"
  fi
}

for ranks in 2 4; do
  check_clean "$ranks" ring_shuffle_put.py ring_shuffle_put
  check_clean "$ranks" ring_shuffle_put_async.py ring_put_async
  check_clean "$ranks" ring_shuffle_put_async.py ring_put_sync
  check_clean "$ranks" put_async_overlap.py PutAsyncOverlap
  check_clean "$ranks" put_async_overlap.py PutSyncOverlap
  check_clean "$ranks" allgather_gemm.py AllGatherGemm "${small_gemm[@]}"
done
exit $failed
