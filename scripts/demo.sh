#!/usr/bin/env bash
# The main job: until the runtime lands, check and compile every example.
set -euo pipefail
build=${1:-build}
ranks=${2:-4}
for f in examples/*.py; do
  echo "== ptodist check $f"
  "$build/ptodist" check "$f" -D world_size="$ranks"
done
