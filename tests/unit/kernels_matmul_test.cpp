// Tile matmul against a naive fp64 reference on both paths (AVX-512 kernel, OpenBLAS): fp16/bf16/fp32
// operands, strided views, accumulate, tails of the micro-tile and K blocks, threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/matmul.h"

namespace ptodist::kernels {
namespace {

// A [rows, cols] matrix of one element type stored with a row stride of cols + pad, filled with random
// values in [-2, 2] rounded to the type; `values` holds what is stored, exactly, for the reference.
struct Matrix {
  ElemType type;
  int rows, cols, pad;
  std::vector<double> values;  // the exact values, dense
  std::vector<uint8_t> bytes;

  Matrix(ElemType t, int r, int c, int p, std::mt19937& rng) : type(t), rows(r), cols(c), pad(p) {
    std::uniform_real_distribution<double> dist(-2, 2);
    values.resize(static_cast<size_t>(r) * c);
    bytes.assign(static_cast<size_t>(r) * (c + p) * elem_bytes(t) + 1, 0xcd);
    for (int i = 0; i < r; ++i) {
      for (int j = 0; j < c; ++j) set(i, j, dist(rng));
    }
  }
  TileView view() { return TileView{bytes.data(), rows, cols, cols + pad, type}; }
  void set(int i, int j, double v) {
    uint8_t* p = bytes.data() + (static_cast<size_t>(i) * (cols + pad) + j) * elem_bytes(type);
    const auto f = static_cast<float>(v);
    double stored = f;
    if (type == ElemType::F32) {
      *reinterpret_cast<float*>(p) = f;
    } else if (type == ElemType::F16) {
      *reinterpret_cast<uint16_t*>(p) = fp32_to_fp16(f);
      stored = fp16_to_fp32(fp32_to_fp16(f));
    } else {
      *reinterpret_cast<uint16_t*>(p) = fp32_to_bf16(f);
      stored = bf16_to_fp32(fp32_to_bf16(f));
    }
    values[static_cast<size_t>(i) * cols + j] = stored;
  }
  float out(int i, int j) const {
    return reinterpret_cast<const float*>(bytes.data())[static_cast<size_t>(i) * (cols + pad) + j];
  }
};

// Checks c (as computed) against init + a @ b in fp64, within rtol 1e-5 of the sum of |terms|.
void expect_product(const Matrix& a, const Matrix& b, const Matrix& c, const std::vector<double>& init) {
  for (int i = 0; i < a.rows; ++i) {
    for (int j = 0; j < b.cols; ++j) {
      double ref = init.empty() ? 0 : init[static_cast<size_t>(i) * b.cols + j];
      double scale = std::abs(ref);
      for (int k = 0; k < a.cols; ++k) {
        const double t =
            a.values[static_cast<size_t>(i) * a.cols + k] * b.values[static_cast<size_t>(k) * b.cols + j];
        ref += t;
        scale += std::abs(t);
      }
      ASSERT_NEAR(c.out(i, j), ref, 1e-5 * scale + 1e-30) << "c[" << i << "," << j << "]";
    }
  }
}

struct Case {
  ElemType a, b;
  int m, k, n, pad;
};

// Selects a matmul path for one test and restores the default afterwards; `ok` is false when the CPU
// cannot run it (the test then skips).
struct PathGuard {
  bool ok;
  explicit PathGuard(MatmulPath p) : ok(set_matmul_path(p)) {}
  ~PathGuard() { set_matmul_path(MatmulPath::Auto); }
};

const char* path_name(MatmulPath p) {
  return p == MatmulPath::Avx512 ? "avx512" : p == MatmulPath::OpenBlas ? "openblas" : "auto";
}

class KernelsMatmul : public ::testing::TestWithParam<std::tuple<MatmulPath, Case>> {};

TEST_P(KernelsMatmul, MatchesFp64Reference) {
  const PathGuard guard(std::get<0>(GetParam()));
  if (!guard.ok) GTEST_SKIP() << "this CPU has no AVX-512";
  const Case cs = std::get<1>(GetParam());
  std::mt19937 rng(cs.m * 131 + cs.k * 7 + cs.n);
  Matrix a(cs.a, cs.m, cs.k, cs.pad, rng), b(cs.b, cs.k, cs.n, cs.pad, rng);
  Matrix c(ElemType::F32, cs.m, cs.n, cs.pad, rng);
  matmul(a.view(), b.view(), c.view());
  expect_product(a, b, c, {});
  // Padding between rows is left alone.
  if (cs.pad > 0 && cs.m > 0 && cs.n > 0) {
    EXPECT_EQ(c.bytes[cs.n * 4], 0xcd);
  }

  Matrix acc(ElemType::F32, cs.m, cs.n, cs.pad, rng);
  const std::vector<double> init = acc.values;
  matmul_acc(a.view(), b.view(), acc.view());
  expect_product(a, b, acc, init);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, KernelsMatmul,
    ::testing::Combine(
        ::testing::Values(MatmulPath::Avx512, MatmulPath::OpenBlas),
        ::testing::Values(Case{ElemType::F16, ElemType::F16, 128, 256, 128, 0},
                          Case{ElemType::F16, ElemType::F16, 128, 128, 256, 0},  // the runtime's GEMM tile
                          Case{ElemType::F16, ElemType::F16, 13, 300, 130, 7},   // M, N and K-block tails
                          Case{ElemType::BF16, ElemType::F16, 6, 129, 64, 0},  // one micro-tile, K = 128 + 1
                          Case{ElemType::F32, ElemType::F32, 7, 40, 65, 1},    // strided fp32 A used in place
                          Case{ElemType::BF16, ElemType::BF16, 128, 256, 128, 0},
                          Case{ElemType::F32, ElemType::F32, 64, 96, 80, 0},
                          Case{ElemType::F16, ElemType::BF16, 33, 17, 9, 0},
                          Case{ElemType::F16, ElemType::F16, 31, 45, 19, 5},  // strided (GM-like) views
                          Case{ElemType::F32, ElemType::F16, 16, 16, 16, 3},  // strided fp32 passes through
                          Case{ElemType::BF16, ElemType::F32, 1, 300, 1, 2},  // vector-vector
                          Case{ElemType::F16, ElemType::F16, 5, 0, 7, 0})),   // K == 0: empty sums
    [](const ::testing::TestParamInfo<KernelsMatmul::ParamType>& info) {
      return std::string(path_name(std::get<0>(info.param))) + "_" + std::to_string(info.index);
    });

// Random shapes around the AVX-512 kernel's blocking (6-row micro-tiles, 64-column panels, 128-deep K
// blocks), every operand type mix, strided views and both accumulate modes.
TEST(KernelsMatmulAvx512, RandomShapesMatchReference) {
  const PathGuard guard(MatmulPath::Avx512);
  if (!guard.ok) GTEST_SKIP() << "this CPU has no AVX-512";
  const ElemType types[] = {ElemType::F16, ElemType::BF16, ElemType::F32};
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> dim(1, 200), pad(0, 9), type(0, 2);
  for (int trial = 0; trial < 25; ++trial) {
    const int m = dim(rng), k = dim(rng), n = dim(rng), p = pad(rng);
    SCOPED_TRACE(::testing::Message()
                 << "trial " << trial << ": m " << m << " k " << k << " n " << n << " pad " << p);
    Matrix a(types[type(rng)], m, k, p, rng), b(types[type(rng)], k, n, p, rng);
    Matrix c(ElemType::F32, m, n, p, rng);
    const std::vector<double> init = c.values;
    if (trial % 2 == 0) {
      matmul(a.view(), b.view(), c.view());
      expect_product(a, b, c, {});
    } else {
      matmul_acc(a.view(), b.view(), c.view());
      expect_product(a, b, c, init);
    }
  }
}

TEST(KernelsMatmulSupport, Types) {
  EXPECT_TRUE(matmul_supported(ElemType::F16, ElemType::BF16, ElemType::F32));
  EXPECT_FALSE(matmul_supported(ElemType::F16, ElemType::F16, ElemType::F16));
  EXPECT_FALSE(matmul_supported(ElemType::I8, ElemType::F16, ElemType::F32));
}

// Read during static initialisation, before any matmul can set it.
const bool kUserChoseBlasCore = std::getenv("OPENBLAS_CORETYPE") != nullptr;

// OpenBLAS runs single-threaded inside a tile matmul, and not on its generic fallback kernels when the
// CPU has AVX2 (unless the user chose a core with OPENBLAS_CORETYPE).
TEST(KernelsMatmulSupport, BlasBackendIsPinnedAndTuned) {
  const PathGuard guard(MatmulPath::OpenBlas);
  const std::string info = matmul_backend();
  if (info.rfind("OpenBLAS", 0) != 0) GTEST_SKIP() << info;
  EXPECT_NE(info.find(", 1 thread"), std::string::npos) << info;
  if (__builtin_cpu_supports("avx2") && !kUserChoseBlasCore) {
    EXPECT_EQ(info.find("Prescott"), std::string::npos) << info;
  }
}

// By default the AVX-512 kernel does the arithmetic wherever the CPU has it.
TEST(KernelsMatmulSupport, AutoPrefersAvx512) {
  const char* env = std::getenv("PTODIST_MATMUL");
  if (env != nullptr && std::string(env) == "openblas") GTEST_SKIP() << "PTODIST_MATMUL=openblas";
  const bool has_avx512 = set_matmul_path(MatmulPath::Avx512);
  set_matmul_path(MatmulPath::Auto);
  EXPECT_EQ(matmul_backend().rfind("AVX-512", 0) == 0, has_avx512) << matmul_backend();
}

// The runtime calls matmul from many core threads at once; scratch is per thread, so every thread gets
// the bits a lone call gets.
class KernelsMatmulThreads : public ::testing::TestWithParam<MatmulPath> {};

TEST_P(KernelsMatmulThreads, ConcurrentCallsAreIndependent) {
  const PathGuard guard(GetParam());
  if (!guard.ok) GTEST_SKIP() << "this CPU has no AVX-512";
  constexpr int kThreads = 12;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t) {
    pool.emplace_back([t, &failures] {
      std::mt19937 rng(t);
      const int m = 24 + t, k = 40 + 3 * t, n = 16 + 2 * t;
      Matrix a(t % 2 ? ElemType::F16 : ElemType::BF16, m, k, 0, rng), b(ElemType::F16, k, n, 0, rng);
      Matrix c(ElemType::F32, m, n, 0, rng), first(ElemType::F32, m, n, 0, rng);
      matmul(a.view(), b.view(), first.view());
      for (int rep = 0; rep < 20; ++rep) {
        matmul(a.view(), b.view(), c.view());
        failures[t] += c.bytes != first.bytes;
      }
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

INSTANTIATE_TEST_SUITE_P(Paths, KernelsMatmulThreads,
                         ::testing::Values(MatmulPath::Avx512, MatmulPath::OpenBlas),
                         [](const ::testing::TestParamInfo<MatmulPath>& info) {
                           return path_name(info.param);
                         });

}  // namespace
}  // namespace ptodist::kernels
