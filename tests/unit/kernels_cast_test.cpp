// The cast rule: float->int truncation with saturation, saturating int narrowing, single rounding to
// floats, Bool both ways, and the bulk float paths against the scalar conversions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/convert.h"

namespace ptodist::kernels {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Casts one value held in type `from` (written with its raw bytes) to type `to`; returns the raw bytes.
template <typename From>
std::vector<uint8_t> cast_one(ElemType from, From v, ElemType to) {
  std::vector<uint8_t> src(sizeof(From)), dst(static_cast<size_t>(elem_bytes(to)));
  std::memcpy(src.data(), &v, sizeof(From));
  cast(TileView::contiguous(dst.data(), 1, 1, to), TileView::contiguous(src.data(), 1, 1, from));
  return dst;
}

template <typename To>
To as(const std::vector<uint8_t>& bytes) {
  To v;
  std::memcpy(&v, bytes.data(), sizeof(To));
  return v;
}

TEST(KernelsCast, FloatToIntTruncatesAndSaturates) {
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, 2.9f, ElemType::I32)), 2);
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, -2.9f, ElemType::I32)), -2);
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, 3e9f, ElemType::I32)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, -3e9f, ElemType::I32)), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, kNaN, ElemType::I32)), 0);
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, kInf, ElemType::I32)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F32, 2147483520.0f, ElemType::I32)), 2147483520);
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::F32, -1.0f, ElemType::U8)), 0);
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::F32, 255.9f, ElemType::U8)), 255);
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::F32, 300.0f, ElemType::U8)), 255);
  EXPECT_EQ(as<int8_t>(cast_one(ElemType::F32, -128.7f, ElemType::I8)), -128);
  EXPECT_EQ(as<int16_t>(cast_one(ElemType::F32, 40000.0f, ElemType::I16)), 32767);
  EXPECT_EQ(as<int64_t>(cast_one(ElemType::F32, 1e19f, ElemType::I64)), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(as<int64_t>(cast_one(ElemType::F32, -9.3e18f, ElemType::I64)),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(as<int64_t>(cast_one(ElemType::F32, -9.2e18f, ElemType::I64)), static_cast<int64_t>(-9.2e18f));
  EXPECT_EQ(as<int32_t>(cast_one(ElemType::F16, fp32_to_fp16(-7.75f), ElemType::I32)), -7);
  EXPECT_EQ(as<int16_t>(cast_one(ElemType::BF16, fp32_to_bf16(1e10f), ElemType::I16)), 32767);
}

TEST(KernelsCast, IntNarrowingSaturates) {
  EXPECT_EQ(as<int8_t>(cast_one(ElemType::I32, 200, ElemType::I8)), 127);
  EXPECT_EQ(as<int8_t>(cast_one(ElemType::I32, -200, ElemType::I8)), -128);
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::I32, -5, ElemType::U8)), 0);
  EXPECT_EQ(as<int32_t>(cast_one<int64_t>(ElemType::I64, int64_t{1} << 40, ElemType::I32)), 2147483647);
  EXPECT_EQ(as<int64_t>(cast_one<int8_t>(ElemType::I8, -3, ElemType::I64)), -3);
  EXPECT_EQ(as<int16_t>(cast_one<uint8_t>(ElemType::U8, 250, ElemType::I16)), 250);
}

TEST(KernelsCast, IntToFloatRoundsOnce) {
  auto to_f16 = [](int32_t v) {
    return fp16_to_fp32(as<uint16_t>(cast_one(ElemType::I32, v, ElemType::F16)));
  };
  auto to_bf16 = [](int64_t v) {
    return bf16_to_fp32(as<uint16_t>(cast_one(ElemType::I64, v, ElemType::BF16)));
  };
  EXPECT_EQ(to_f16(2049), 2048.0f);  // tie to even
  EXPECT_EQ(to_f16(2051), 2052.0f);
  EXPECT_EQ(to_f16(-2051), -2052.0f);
  EXPECT_EQ(to_f16(65519), 65504.0f);
  EXPECT_EQ(to_f16(65520), kInf);
  EXPECT_EQ(to_f16(-100000), -kInf);
  EXPECT_EQ(to_bf16(257), 256.0f);
  EXPECT_EQ(to_bf16(259), 260.0f);
  // 2^62 + 2^54 + 1 lies just above the tie between 2^62 and 2^62 + 2^55. Through fp64 (or fp32) the +1
  // is lost, the tie rounds to even and the answer would be 2^62: one rounding gives the upper value.
  EXPECT_EQ(to_bf16((int64_t{1} << 62) + (int64_t{1} << 54) + 1),
            std::ldexp(1.0f, 62) + std::ldexp(1.0f, 55));
  EXPECT_EQ(to_bf16(std::numeric_limits<int64_t>::min()), -std::ldexp(1.0f, 63));
  EXPECT_EQ(as<float>(cast_one(ElemType::I32, 16777217, ElemType::F32)), 16777216.0f);
  EXPECT_EQ(as<float>(cast_one<int64_t>(ElemType::I64, (int64_t{1} << 40) + 1, ElemType::F32)),
            std::ldexp(1.0f, 40));
}

TEST(KernelsCast, BoolBothWays) {
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::F32, kNaN, ElemType::Bool)), 1);
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::F32, -0.0f, ElemType::Bool)), 0);
  EXPECT_EQ(as<uint8_t>(cast_one(ElemType::I32, -5, ElemType::Bool)), 1);
  EXPECT_EQ(as<float>(cast_one<uint8_t>(ElemType::Bool, 1, ElemType::F32)), 1.0f);
  EXPECT_EQ(as<int64_t>(cast_one<uint8_t>(ElemType::Bool, 1, ElemType::I64)), 1);
  EXPECT_EQ(as<uint16_t>(cast_one<uint8_t>(ElemType::Bool, 1, ElemType::BF16)), 0x3f80);
}

TEST(KernelsCast, FloatToFloatMatchesScalarConversions) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-70000, 70000);
  const int rows = 3, cols = 300;  // crosses the internal 256-element blocks
  std::vector<float> f(static_cast<size_t>(rows) * cols);
  for (auto& x : f) x = dist(rng) / static_cast<float>(1 << (rng() % 20));
  f[5] = kNaN, f[6] = -kInf, f[7] = 1e-8f;
  std::vector<uint16_t> h(f.size()), b(f.size()), hb(f.size()), bh(f.size());
  std::vector<float> back(f.size());
  const auto F = [&](void* p, ElemType t) { return TileView::contiguous(p, rows, cols, t); };
  cast(F(h.data(), ElemType::F16), F(f.data(), ElemType::F32));
  cast(F(b.data(), ElemType::BF16), F(f.data(), ElemType::F32));
  cast(F(hb.data(), ElemType::BF16), F(h.data(), ElemType::F16));
  cast(F(bh.data(), ElemType::F16), F(b.data(), ElemType::BF16));
  cast(F(back.data(), ElemType::F32), F(h.data(), ElemType::F16));
  for (size_t i = 0; i < f.size(); ++i) {
    ASSERT_EQ(h[i], fp32_to_fp16(f[i])) << i;
    ASSERT_EQ(b[i], fp32_to_bf16(f[i])) << i;
    ASSERT_EQ(hb[i], fp32_to_bf16(fp16_to_fp32(h[i]))) << i;
    ASSERT_EQ(bh[i], fp32_to_fp16(bf16_to_fp32(b[i]))) << i;
    const float widened = fp16_to_fp32(h[i]);
    ASSERT_EQ(std::memcmp(&back[i], &widened, 4), 0) << i;
  }
}

TEST(KernelsCast, StridedViewsAndSameType) {
  // A [2, 3] i32 region of a [2, 5] GM tensor cast into a dense f32 tile, then back with the same type.
  std::vector<int32_t> gm = {1, 2, 3, 99, 99, 4, 5, 6, 99, 99};
  std::vector<float> tile(6);
  cast(TileView::contiguous(tile.data(), 2, 3, ElemType::F32), TileView{gm.data(), 2, 3, 5, ElemType::I32});
  EXPECT_EQ(tile, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  std::vector<int32_t> copy(10, -1);
  cast(TileView{copy.data(), 2, 3, 5, ElemType::I32}, TileView{gm.data(), 2, 3, 5, ElemType::I32});
  EXPECT_EQ(copy, (std::vector<int32_t>{1, 2, 3, -1, -1, 4, 5, 6, -1, -1}));
}

TEST(KernelsCast, StoreAndLoadScalar) {
  uint8_t buf[8];
  store_scalar(ElemType::F16, buf, 0.5);
  EXPECT_EQ(load_scalar(ElemType::F16, buf), 0.5);
  store_scalar(ElemType::I64, buf, -1e30);
  EXPECT_EQ(load_scalar(ElemType::I64, buf), static_cast<double>(std::numeric_limits<int64_t>::min()));
  store_scalar(ElemType::I16, buf, -7.9);
  EXPECT_EQ(load_scalar(ElemType::I16, buf), -7);
  store_scalar(ElemType::U8, buf, kNaN);
  EXPECT_EQ(load_scalar(ElemType::U8, buf), 0);
}

}  // namespace
}  // namespace ptodist::kernels
