// fp16/bf16 conversion: bulk (F16C/AVX2) paths against the scalar reference, exhaustively for fp16.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ptodist/kernels/convert.h"

namespace ptodist::kernels {
namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::vector<uint16_t> all_fp16_patterns() {
  std::vector<uint16_t> v(65536);
  for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<uint16_t>(i);
  return v;
}

TEST(KernelsConvert, Fp16ToFp32ExhaustiveMatchesScalar) {
  const auto h = all_fp16_patterns();
  std::vector<float> bulk(h.size());
  fp16_to_fp32_n(h.data(), bulk.data(), static_cast<long>(h.size()));
  for (size_t i = 0; i < h.size(); ++i) {
    ASSERT_EQ(bits(bulk[i]), bits(fp16_to_fp32(h[i]))) << "fp16 0x" << std::hex << i;
  }
}

TEST(KernelsConvert, Fp16RoundTripsExactlyThroughFp32) {
  const auto h = all_fp16_patterns();
  std::vector<float> f(h.size());
  std::vector<uint16_t> back(h.size());
  fp16_to_fp32_n(h.data(), f.data(), static_cast<long>(h.size()));
  fp32_to_fp16_n(f.data(), back.data(), static_cast<long>(h.size()));
  for (size_t i = 0; i < h.size(); ++i) {
    const bool is_nan = (h[i] & 0x7c00) == 0x7c00 && (h[i] & 0x3ff) != 0;
    // A signalling NaN comes back quiet; everything else comes back bit for bit.
    const uint16_t expected = is_nan ? static_cast<uint16_t>(h[i] | 0x200) : h[i];
    ASSERT_EQ(back[i], expected) << "fp16 0x" << std::hex << i;
    ASSERT_EQ(fp32_to_fp16(f[i]), expected) << "fp16 0x" << std::hex << i;
  }
}

// Every fp32 value halfway between two adjacent fp16 values (and one ulp either side) rounds like
// the hardware: these are the ties-to-even and near-tie cases.
TEST(KernelsConvert, Fp32ToFp16HalfwayCasesMatchScalar) {
  std::vector<float> in;
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const double lo = fp16_to_fp32(static_cast<uint16_t>(h));
    const double hi = h + 1 == 0x7c00 ? 65536.0 : fp16_to_fp32(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((lo + hi) / 2);  // exact in fp32
    for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) {
      in.push_back(f);
      in.push_back(-f);
    }
  }
  std::vector<uint16_t> bulk(in.size());
  fp32_to_fp16_n(in.data(), bulk.data(), static_cast<long>(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(bulk[i], fp32_to_fp16(in[i])) << "fp32 0x" << std::hex << bits(in[i]);
  }
  EXPECT_EQ(fp32_to_fp16(65519.99f), 0x7bff);           // below the tie with 65536: largest finite
  EXPECT_EQ(fp32_to_fp16(65520.0f), 0x7c00);            // the tie rounds to even, which is inf
  EXPECT_EQ(fp32_to_fp16(1.0f + 1.0f / 2048), 0x3c00);  // tie between 1 and 1+2^-10: even is 1
  EXPECT_EQ(fp32_to_fp16(1.0f + 3.0f / 2048), 0x3c02);  // tie, even is the upper one
}

TEST(KernelsConvert, Fp32ToFp16SampledBitPatternsMatchScalar) {
  std::vector<float> in;
  for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 65521) in.push_back(from_bits(static_cast<uint32_t>(u)));
  std::vector<uint16_t> bulk(in.size());
  fp32_to_fp16_n(in.data(), bulk.data(), static_cast<long>(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(bulk[i], fp32_to_fp16(in[i])) << "fp32 0x" << std::hex << bits(in[i]);
  }
}

// All 2^32 fp32 patterns, bulk against scalar, for fp16 and bf16: about 30 s of CPU in a Release build,
// so it runs only when PTODIST_EXHAUSTIVE is set.
TEST(KernelsConvert, EveryFp32PatternWhenAsked) {
  if (std::getenv("PTODIST_EXHAUSTIVE") == nullptr) GTEST_SKIP() << "set PTODIST_EXHAUSTIVE=1 to run";
  const long n = 1 << 20;
  std::vector<float> f(n);
  std::vector<uint16_t> h(n), b(n);
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += n) {
    for (long i = 0; i < n; ++i) f[i] = from_bits(static_cast<uint32_t>(base + i));
    fp32_to_fp16_n(f.data(), h.data(), n);
    fp32_to_bf16_n(f.data(), b.data(), n);
    for (long i = 0; i < n; ++i) {
      ASSERT_EQ(h[i], fp32_to_fp16(f[i])) << "fp32 0x" << std::hex << base + i;
      ASSERT_EQ(b[i], fp32_to_bf16(f[i])) << "fp32 0x" << std::hex << base + i;
    }
  }
}

TEST(KernelsConvert, Bf16RoundingCases) {
  EXPECT_EQ(fp32_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(fp32_to_bf16(from_bits(0x3f808000)), 0x3f80);  // tie, even stays
  EXPECT_EQ(fp32_to_bf16(from_bits(0x3f818000)), 0x3f82);  // tie, odd rounds up
  EXPECT_EQ(fp32_to_bf16(from_bits(0x3f808001)), 0x3f81);  // above the tie
  EXPECT_EQ(fp32_to_bf16(from_bits(0x3f807fff)), 0x3f80);  // below the tie
  EXPECT_EQ(fp32_to_bf16(from_bits(0x7f7fffff)), 0x7f80);  // FLT_MAX rounds to inf
  EXPECT_EQ(fp32_to_bf16(-std::numeric_limits<float>::infinity()), 0xff80);
  EXPECT_EQ(fp32_to_bf16(from_bits(0x00008000)), 0x0000);  // subnormal tie to even (zero)
  EXPECT_EQ(fp32_to_bf16(from_bits(0x80018000)), 0x8002);  // negative subnormal tie, odd: up
  // NaNs stay NaNs even when only low payload bits are set, and keep their sign.
  EXPECT_EQ(fp32_to_bf16(from_bits(0x7f800001)), 0x7fc0);
  EXPECT_EQ(fp32_to_bf16(from_bits(0xffc00000)), 0xffc0);
  EXPECT_EQ(fp32_to_bf16(from_bits(0x7fa00000)), 0x7fe0);
}

TEST(KernelsConvert, Bf16BulkMatchesScalar) {
  std::vector<float> in;
  for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 65519) in.push_back(from_bits(static_cast<uint32_t>(u)));
  for (uint32_t u : {0x7f800001u, 0xff800001u, 0x3f808000u, 0x3f818000u, 0x7f7fffffu})
    in.push_back(from_bits(u));
  std::vector<uint16_t> bulk(in.size());
  fp32_to_bf16_n(in.data(), bulk.data(), static_cast<long>(in.size()));
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(bulk[i], fp32_to_bf16(in[i])) << i;

  const auto h = all_fp16_patterns();  // every bf16 pattern widens exactly: a plain shift
  std::vector<float> wide(h.size());
  bf16_to_fp32_n(h.data(), wide.data(), static_cast<long>(h.size()));
  for (size_t i = 0; i < h.size(); ++i) {
    ASSERT_EQ(bits(wide[i]), static_cast<uint32_t>(h[i]) << 16);
    ASSERT_EQ(bits(bf16_to_fp32(h[i])), static_cast<uint32_t>(h[i]) << 16);
  }
}

TEST(KernelsConvert, OddLengthsAndOffsets) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1000, 1000);
  for (long n : {0L, 1L, 7L, 8L, 9L, 15L, 16L, 17L, 33L}) {
    std::vector<float> in(n + 1);
    for (auto& x : in) x = dist(rng);
    std::vector<uint16_t> h(n + 1), b(n + 1);
    fp32_to_fp16_n(in.data() + 1, h.data() + 1, n);
    fp32_to_bf16_n(in.data() + 1, b.data() + 1, n);
    for (long i = 1; i <= n; ++i) {
      ASSERT_EQ(h[i], fp32_to_fp16(in[i]));
      ASSERT_EQ(b[i], fp32_to_bf16(in[i]));
    }
  }
}

}  // namespace
}  // namespace ptodist::kernels
