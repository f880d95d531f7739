#!/usr/bin/env bash
# The cost of check mode (docs/checking.md section 6): median round time and peak memory, fast vs
# check mode, 4 ranks, every example and allgather_gemm at its default (published) size.
# Usage, from the source root: tests/hazards/check_cost.sh [PTODIST]
b=${1:-build/ptodist}
run() {  # FILE PROGRAM ROUNDS
  for mode in fast check; do
    out=$(/usr/bin/time -f "maxrss_kb=%M" $b bench examples/$1 --program $2 --ranks 4 --warmup 2 --rounds $3 --mode $mode 2>&1)
    med=$(grep "^round" <<<"$out" | awk "{print \$3, \$4}")
    rss=$(grep -o "maxrss_kb=[0-9]*" <<<"$out")
    echo "$1 $2 $mode: $med $rss"
  done
}
run ring_shuffle_put.py ring_shuffle_put 30
run ring_shuffle_put_async.py ring_put_async 30
run ring_shuffle_put_async.py ring_put_sync 30
run put_async_overlap.py PutAsyncOverlap 30
run put_async_overlap.py PutSyncOverlap 30
run allgather_gemm.py AllGatherGemm 10
