#!/usr/bin/env bash
# The check-mode sweep of every collective and mode (tests/e2e/collectives): each program of
# collectives.py (allreduce Sum/Max/Min in mesh and Sum in ring mode, allgather, reduce_scatter,
# broadcast, all_to_all, all_to_all_v, barrier; each called twice on one signal) at 2, 3, 4 and 8
# ranks, the allreduce program again with a target of 3 chunks (split among their owners), the two
# overlapping groups of groups.py at 4 ranks, and deferred completion (deferred.py) at 2, 3 and 4
# ranks, each over SEEDS seeds of the check scheduler. Any report is a bug. Too slow for
# `make test` (whose e2e tests run 3 seeds); run it under nice:
#   nice -n 19 scripts/collectives_check_sweep.sh build/ptodist [SEEDS] [OUT_DIR]
set -euo pipefail
PTODIST=${1:?usage: collectives_check_sweep.sh PTODIST [SEEDS] [OUT_DIR]}
SEEDS=${2:-50}
OUT=${3:-$(mktemp -d /tmp/ptodist-sweep.XXXXXX)}
HERE=$(cd "$(dirname "$0")/../tests/e2e/collectives" && pwd)
start=$(date +%s)
status=0
python3 "$HERE/check_collectives.py" "$PTODIST" "$OUT/coll" --ranks 2,3,4,8 --mode check --runs "$SEEDS" || status=1
# allreduce of 3 chunks (one per 8 KiB row): the owner-split form (docs/passes.md), at each rank count
python3 "$HERE/check_collectives.py" "$PTODIST" "$OUT/owner" --programs AllReduce -D size=2048 -D rows=3 \
  --ranks 2,3,4,8 --mode check --runs "$SEEDS" || status=1
python3 "$HERE/check_groups.py" "$PTODIST" "$OUT/groups" --runs "$SEEDS" || status=1
python3 "$HERE/check_deferred.py" "$PTODIST" "$OUT/deferred" --runs "$SEEDS" || status=1
echo "sweep: $SEEDS seeds per case, $(( $(date +%s) - start )) s, $([ $status = 0 ] && echo 'no report' || echo FAILED)"
exit $status
