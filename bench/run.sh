#!/usr/bin/env bash
# Runs every benchmark built under BUILD/bench (default: build) and the all-gather + GEMM demo, and
# prints each figure's ratio against its baseline measured in the same run (docs/benchmarks.md).
#   bash bench/run.sh [BUILD] [extra Google Benchmark flags, e.g. --benchmark_filter=Matmul]
# BENCH_REPS (default 5): repetitions of each Google Benchmark, randomly interleaved; ratios use the
# median of each. BENCH_ROUNDS (default 41): interleaved rounds of the comparison programs (a
# round takes milliseconds; on a busy machine fewer rounds leave the ratios noisy).
# Google Benchmark JSON results are kept as BUILD/bench/<name>.json. COLL_SKIP=1 skips the collectives
# against MPI (bench/collectives_bench.sh, whose COLL_* variables apply).
set -euo pipefail

build=${1:-build}
shift || true
reps=${BENCH_REPS:-5}
rounds=${BENCH_ROUNDS:-41}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$build/bench" ]; then
  echo "run.sh: no $build/bench; build first (make build)" >&2
  exit 1
fi

build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
if [ "$build_type" != "Release" ]; then
  echo "run.sh: warning: $build is a '${build_type:-unknown}' build; figures are only comparable from Release" >&2
fi

# Programs with their own main that time a baseline themselves (not Google Benchmark).
comparison="executor_overhead_bench"

echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "   CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" \
  "(family $(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
  "model $(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -1))"
echo "   OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-<unset>} OPENBLAS_L2_SIZE=${OPENBLAS_L2_SIZE:-<unset>}" \
  "BLIS_ARCH_TYPE=${BLIS_ARCH_TYPE:-<unset>} PTODIST_MATMUL=${PTODIST_MATMUL:-<unset>}" \
  "(the baselines try every OpenBLAS core the CPU runs, whatever OPENBLAS_CORETYPE says)"

# Ratios of Google Benchmark medians: "label|numerator run|baseline run|how to read it".
ratio_table() {
  python3 - "$1" <<'EOF'
import json, sys
runs = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
        continue
    t = b["real_time"] if "/real_time" in b["run_name"] else b["cpu_time"]
    runs.setdefault(b["run_name"], t)
pairs = [
    ("tile matmul fp16 128x128x256, AVX-512 path", "BM_TileMatmul/f16_128x128x256_avx512", "BM_PlainSgemm"),
    ("tile matmul fp16 128x128x256, OpenBLAS path", "BM_TileMatmul/f16_128x128x256_openblas", "BM_PlainSgemm"),
    ("tile matmul bf16 128x128x256, AVX-512 path", "BM_TileMatmul/bf16_128x128x256_avx512", "BM_PlainSgemm"),
    ("tile matmul bf16 128x128x256, OpenBLAS path", "BM_TileMatmul/bf16_128x128x256_openblas", "BM_PlainSgemm"),
    ("tile matmul fp32 128x128x256, AVX-512 path", "BM_TileMatmul/f32_128x128x256_avx512", "BM_PlainSgemm"),
    ("tile matmul fp32 128x128x256, OpenBLAS path", "BM_TileMatmul/f32_128x128x256_openblas", "BM_PlainSgemm"),
    ("GEMM example tile fp16 M128 K128 N256, AVX-512", "BM_GemmTile/f16_avx512", "BM_GemmTileSgemm"),
    ("GEMM example tile fp16 M128 K128 N256, OpenBLAS", "BM_GemmTile/f16_openblas", "BM_GemmTileSgemm"),
    ("tile matmul fp16, 2 threads, AVX-512", "BM_TileMatmul/f16_128x128x256_avx512/real_time/threads:2",
     "BM_PlainSgemm/real_time/threads:2"),
    ("put 64 KiB", "BM_InprocPut/65536/real_time", "BM_Memcpy/65536/real_time"),
    ("put 1 MiB", "BM_InprocPut/1048576/real_time", "BM_Memcpy/1048576/real_time"),
    ("put 8 MiB", "BM_InprocPut/8388608/real_time", "BM_Memcpy/8388608/real_time"),
    ("put_async 64 KiB", "BM_InprocPutAsync/65536/real_time", "BM_Memcpy/65536/real_time"),
    ("put_async 1 MiB", "BM_InprocPutAsync/1048576/real_time", "BM_Memcpy/1048576/real_time"),
    ("put_async 8 MiB", "BM_InprocPutAsync/8388608/real_time", "BM_Memcpy/8388608/real_time"),
    ("notify -> wait round trip", "BM_NotifyWaitLatency/real_time", "BM_AtomicWaitLatency/real_time"),
]
shown = False
for label, num, den in pairs:
    if num in runs and den in runs:
        if not shown:
            print("   ratios (time / baseline time, medians; < 1 is faster than the baseline):")
            shown = True
        base = "best BLAS sgemm, " + den if "Sgemm" in den else den
        print(f"   {label:48s} {runs[num] / runs[den]:6.2f}x   baseline {base}")
EOF
}

found=0
for exe in "$build"/bench/*_bench; do
  [ -x "$exe" ] || continue
  found=1
  name=$(basename "$exe")
  case " $comparison " in *" $name "*) continue ;; esac
  echo "== $name ($reps repetitions, randomly interleaved)"
  "$exe" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true --benchmark_out="$build/bench/$name.json" \
    --benchmark_out_format=json "$@"
  ratio_table "$build/bench/$name.json"
done
for name in $comparison; do
  exe="$build/bench/$name"
  [ -x "$exe" ] || continue
  echo "== $name ($rounds interleaved rounds)"
  "$exe" --rounds "$rounds"
done
# All-gather + GEMM three ways in one run (overlapped, serialized, comm alone, memcpy + best-BLAS baseline,
# and the same-kernel baseline), every variant checked, interleaved, with paired ratios.
demo="$build/examples/allgather_gemm_demo"
if [ -x "$demo" ]; then
  echo "== allgather_gemm_demo (4 ranks, $rounds interleaved rounds)"
  "$demo" --ranks 4 --warmup 2 --rounds "$rounds" --file "$here/../examples/allgather_gemm.py"
fi
# `ptodist predict` at the published all-gather + GEMM size against `ptodist check` of the same file.
if [ -x "$build/ptodist" ]; then
  echo "== predict speed (bench/predict_speed.py, 3 interleaved rounds)"
  python3 "$here/predict_speed.py" "$build" 3
fi
# ptodist's collectives against MPI's own at np 2 and 4 over shared memory (bench/collectives_bench.sh;
# COLL_SKIP=1 leaves it out: it starts some 150 processes and takes minutes on a loaded machine).
if [ "${COLL_SKIP:-0}" != 1 ] && command -v mpirun >/dev/null && [ -x "$build/bench/mpi_collectives" ]; then
  echo "== collectives against MPI (bench/collectives_bench.sh)"
  bash "$here/collectives_bench.sh" "$build"
fi
if [ "$found" -eq 0 ]; then
  echo "run.sh: no *_bench executables in $build/bench" >&2
  exit 1
fi
