// The strongest correct BLAS on this machine, for benchmark baselines (docs/benchmarks.md, "Baselines").
// Every candidate the machine has (OpenBLAS with each kernel set the CPU can run, BLIS, oneDNN) is checked
// against an fp64 reference on the shapes the benchmark will use; the fastest correct one is chosen.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ptodist::bench {

// Row-major C[m, n] = A[m, k] @ B[k, n] in fp32, single-threaded (the caller's threads are the
// parallelism), leading dimensions in elements.
using Sgemm = std::function<void(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                                 float* c, int ldc)>;

struct GemmShape {
  int m, n, k;
};

struct BlasChoice {
  std::string name;  // e.g. "OpenBLAS 0.3.21 core SkylakeX"
  Sgemm sgemm;
  std::string shapes;  // "MxNxK, ..." as checked and timed
  // One line per candidate: correct or not (worst error / bound), median time per call on each shape.
  std::vector<std::string> report;
};

// Checks and times every candidate on `shapes` (a few hundred ms), leaves the winner ready to call from
// any thread, and returns it. Exits the process (status 1) when no candidate is correct: a benchmark
// without a correct baseline has nothing to compare with.
BlasChoice choose_best_blas(const std::vector<GemmShape>& shapes);

// Prints the choice and every candidate's line, indented, to `out`.
void print_blas_choice(const BlasChoice& choice, std::FILE* out);

// Worst |c - ref| / bound over c, where ref is A @ B in fp64 and the bound is the usual fp32 error bound
// 2 k u sum_l |a_il b_lj| (u = 2^-24) plus a tiny absolute term; <= 1 is correct. Exposed for checks
// of whole results (allgather_gemm_demo).
double gemm_error_vs_fp64(int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                          const float* c, int ldc);

}  // namespace ptodist::bench
