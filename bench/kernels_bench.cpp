// Kernel throughput: the runtime's tile matmul (fp16/bf16 -> fp32) on each path (AVX-512 kernel,
// OpenBLAS) against one sgemm of the best correct BLAS on this machine (blas_baseline.h) on fp32 data of
// the same size, plus the hot elementwise kernels.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "blas_baseline.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/elementwise.h"
#include "ptodist/kernels/matmul.h"
#include "ptodist/kernels/reduce.h"

namespace {

using ptodist::kernels::ElemType;
using ptodist::kernels::MatmulPath;
using ptodist::kernels::TileView;

// The runtime's tile: [M, K] @ [K, N] with M = N = 128, K = 256.
constexpr int kM = 128, kN = 128, kK = 256;

// The baseline sgemm, chosen in main before any benchmark runs.
ptodist::bench::Sgemm best_sgemm;

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

std::vector<uint16_t> narrowed(const std::vector<float>& f, ElemType t) {
  std::vector<uint16_t> h(f.size());
  if (t == ElemType::F16) {
    ptodist::kernels::fp32_to_fp16_n(f.data(), h.data(), static_cast<long>(f.size()));
  } else {
    ptodist::kernels::fp32_to_bf16_n(f.data(), h.data(), static_cast<long>(f.size()));
  }
  return h;
}

std::vector<uint8_t> as_bytes(const std::vector<float>& f, ElemType t) {
  std::vector<uint8_t> out(f.size() * (t == ElemType::F32 ? 4 : 2));
  if (t == ElemType::F32) {
    std::memcpy(out.data(), f.data(), out.size());
  } else {
    const auto h = narrowed(f, t);
    std::memcpy(out.data(), h.data(), out.size());
  }
  return out;
}

void set_flops(benchmark::State& state, double flops_per_iter) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops_per_iter * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// [m, k] @ [k, n] with operands of type t through one matmul path. The path is process-wide, so
// every benchmark sets the one it measures (Google Benchmark runs them one at a time).
void tile_matmul(benchmark::State& state, ElemType t, MatmulPath path, int m, int k, int n) {
  if (!ptodist::kernels::set_matmul_path(path)) {
    state.SkipWithError("this CPU has no AVX-512");
    return;
  }
  // Operand storage as raw bytes so one body serves every operand type.
  auto a = as_bytes(random_floats(m * k, 1), t), b = as_bytes(random_floats(k * n, 2), t);
  std::vector<float> c(m * n);
  const TileView va = TileView::contiguous(a.data(), m, k, t), vb = TileView::contiguous(b.data(), k, n, t);
  const TileView vc = TileView::contiguous(c.data(), m, n, ElemType::F32);
  for (auto _ : state) {
    ptodist::kernels::matmul(va, vb, vc);
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, 2.0 * m * n * k);
  ptodist::kernels::set_matmul_path(MatmulPath::Auto);
}

void BM_TileMatmul(benchmark::State& state, ElemType t, MatmulPath path) {
  tile_matmul(state, t, path, kM, kK, kN);
}

// The all-gather + GEMM example's tile: A [128, 128] @ W [128, 256] (M 128, K 128, N 256).
void BM_GemmTile(benchmark::State& state, MatmulPath path) {
  tile_matmul(state, ElemType::F16, path, 128, 128, 256);
}

// The same shape as one sgemm of the baseline BLAS on data already in fp32: the floor both paths are
// compared to.
void BM_GemmTileSgemm(benchmark::State& state) {
  auto a = random_floats(128 * 128, 1), b = random_floats(128 * 256, 2);
  std::vector<float> c(128 * 256);
  for (auto _ : state) {
    best_sgemm(128, 256, 128, a.data(), 128, b.data(), 256, c.data(), 256);
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, 2.0 * 128 * 256 * 128);
}

// The floor: one sgemm on data already in fp32 (what the tile matmul does after widening).
void BM_PlainSgemm(benchmark::State& state) {
  auto a = random_floats(kM * kK, 1), b = random_floats(kK * kN, 2);
  std::vector<float> c(kM * kN);
  // One thread per call, as the tile matmul runs.
  for (auto _ : state) {
    best_sgemm(kM, kN, kK, a.data(), kK, b.data(), kN, c.data(), kN);
    benchmark::DoNotOptimize(c.data());
  }
  set_flops(state, 2.0 * kM * kN * kK);
}

void BM_WidenFp16(benchmark::State& state) {
  auto h = narrowed(random_floats(kM * kK, 3), ElemType::F16);
  std::vector<float> f(h.size());
  for (auto _ : state) {
    ptodist::kernels::fp16_to_fp32_n(h.data(), f.data(), static_cast<long>(h.size()));
    benchmark::DoNotOptimize(f.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long>(h.size()));
}

// [128, 256] elementwise add in fp16: widen, add, round back.
void BM_AddF16(benchmark::State& state) {
  auto a = narrowed(random_floats(kM * kK, 4), ElemType::F16),
       b = narrowed(random_floats(kM * kK, 5), ElemType::F16);
  std::vector<uint16_t> c(a.size());
  const auto v = [](std::vector<uint16_t>& x) {
    return TileView::contiguous(x.data(), kM, kK, ElemType::F16);
  };
  for (auto _ : state) {
    ptodist::kernels::add(v(c), v(a), v(b));
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long>(a.size()));
}

void BM_ExpF32(benchmark::State& state) {
  auto a = random_floats(kM * kK, 6);
  std::vector<float> c(a.size());
  for (auto _ : state) {
    ptodist::kernels::exp(TileView::contiguous(c.data(), kM, kK, ElemType::F32),
                          TileView::contiguous(a.data(), kM, kK, ElemType::F32));
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long>(a.size()));
}

void BM_RowSumF16(benchmark::State& state) {
  auto a = narrowed(random_floats(kM * kK, 7), ElemType::F16);
  std::vector<float> s(kM);
  for (auto _ : state) {
    ptodist::kernels::row_sum(TileView::contiguous(s.data(), kM, 1, ElemType::F32),
                              TileView::contiguous(a.data(), kM, kK, ElemType::F16));
    benchmark::DoNotOptimize(s.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<long>(a.size()));
}

// Single-thread figures use CPU time, which a busy machine disturbs least; the two-thread rows (two
// runtime cores calling at once) use wall time, so their GFLOP/s is the aggregate.
BENCHMARK_CAPTURE(BM_TileMatmul, f16_128x128x256_avx512, ElemType::F16, MatmulPath::Avx512);
BENCHMARK_CAPTURE(BM_TileMatmul, f16_128x128x256_openblas, ElemType::F16, MatmulPath::OpenBlas);
BENCHMARK_CAPTURE(BM_TileMatmul, bf16_128x128x256_avx512, ElemType::BF16, MatmulPath::Avx512);
BENCHMARK_CAPTURE(BM_TileMatmul, bf16_128x128x256_openblas, ElemType::BF16, MatmulPath::OpenBlas);
BENCHMARK_CAPTURE(BM_TileMatmul, f32_128x128x256_avx512, ElemType::F32, MatmulPath::Avx512);
BENCHMARK_CAPTURE(BM_TileMatmul, f32_128x128x256_openblas, ElemType::F32, MatmulPath::OpenBlas);
BENCHMARK(BM_PlainSgemm);
BENCHMARK_CAPTURE(BM_GemmTile, f16_avx512, MatmulPath::Avx512);
BENCHMARK_CAPTURE(BM_GemmTile, f16_openblas, MatmulPath::OpenBlas);
BENCHMARK(BM_GemmTileSgemm);
BENCHMARK_CAPTURE(BM_TileMatmul, f16_128x128x256_avx512, ElemType::F16, MatmulPath::Avx512)
    ->Threads(2)
    ->UseRealTime();
BENCHMARK(BM_PlainSgemm)->Threads(2)->UseRealTime();
BENCHMARK(BM_WidenFp16);
BENCHMARK(BM_AddF16);
BENCHMARK(BM_ExpF32);
BENCHMARK(BM_RowSumF16);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const auto blas = ptodist::bench::choose_best_blas({{kM, kN, kK}, {128, 256, 128}});
  ptodist::bench::print_blas_choice(blas, stdout);
  best_sgemm = blas.sgemm;
  benchmark::AddCustomContext("baseline_blas", blas.name);
  benchmark::AddCustomContext("matmul_backend", ptodist::kernels::matmul_backend());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
