// The benchmarks' baseline BLAS (bench/blas_baseline.h): the fp64 check accepts a right product and
// rejects a wrong one, and the chosen BLAS computes the shapes it was chosen on correctly.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "blas_baseline.h"

namespace {

using ptodist::bench::gemm_error_vs_fp64;

struct Product {
  int m, n, k;
  std::vector<float> a, b, c;
};

// A [m, k] @ B [k, n] with random operands and C summed in fp32 by a plain loop.
Product naive(int m, int n, int k) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1, 1);
  Product p{m, n, k, std::vector<float>(m * k), std::vector<float>(k * n), std::vector<float>(m * n)};
  for (auto& x : p.a) x = d(rng);
  for (auto& x : p.b) x = d(rng);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int l = 0; l < k; ++l) s += p.a[i * k + l] * p.b[l * n + j];
      p.c[i * n + j] = s;
    }
  return p;
}

double error_of(const Product& p) {
  return gemm_error_vs_fp64(p.m, p.n, p.k, p.a.data(), p.k, p.b.data(), p.n, p.c.data(), p.n);
}

TEST(BenchBlasBaseline, Fp32SumIsWithinTheBound) {
  EXPECT_LE(error_of(naive(7, 9, 300)), 1.0);
}

TEST(BenchBlasBaseline, WrongElementIsOutsideTheBound) {
  Product p = naive(7, 9, 300);
  p.c[5 * 9 + 3] += 0.05f;  // the bound 2 k u sum|a b| is about 3e-3 here (sum|a b| ~ 75)
  EXPECT_GT(error_of(p), 1.0);
  p.c[5 * 9 + 3] = std::nanf("");
  EXPECT_TRUE(std::isnan(error_of(p)));
}

TEST(BenchBlasBaseline, ChosenBlasIsCorrectAndNamed) {
  const auto choice = ptodist::bench::choose_best_blas({{13, 40, 64}, {33, 17, 129}});
  EXPECT_FALSE(choice.name.empty());
  EXPECT_FALSE(choice.report.empty());
  Product p = naive(33, 17, 129);
  std::fill(p.c.begin(), p.c.end(), 0.0f);
  choice.sgemm(p.m, p.n, p.k, p.a.data(), p.k, p.b.data(), p.n, p.c.data(), p.n);
  EXPECT_LE(error_of(p), 1.0) << choice.name;
}

}  // namespace
