// pl.cast's rounding modes (RoundMode) on single elements, by hand: bf16 neighbours of values between
// two bf16 numbers, the fp16 overflow tie, int32 to fp32 past 2^24, and a row that mixes ties.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/convert.h"

namespace ptodist::kernels {
namespace {

template <typename From>
uint32_t cast_bits(ElemType from, From v, ElemType to, RoundMode mode) {
  uint32_t dst = 0;
  cast(TileView::contiguous(&dst, 1, 1, to), TileView::contiguous(&v, 1, 1, from), mode);
  return dst;
}

float bf16(float v, RoundMode m) {
  return bf16_to_fp32(static_cast<uint16_t>(cast_bits(ElemType::F32, v, ElemType::BF16, m)));
}

TEST(KernelsCastModes, Bf16DirectedAndTies) {
  // 1 + 2^-8 lies halfway between the bf16 numbers 1 and 1 + 2^-7.
  const float tie = 1.00390625f, up = 1.0078125f;
  EXPECT_EQ(bf16(tie, RoundMode::Rint), 1.0f);  // ties to even
  EXPECT_EQ(bf16(tie, RoundMode::Round), up);   // ties away from zero
  EXPECT_EQ(bf16(-tie, RoundMode::Round), -up);
  EXPECT_EQ(bf16(tie, RoundMode::Trunc), 1.0f);
  EXPECT_EQ(bf16(-tie, RoundMode::Floor), -up);
  EXPECT_EQ(bf16(-tie, RoundMode::Ceil), -1.0f);
  EXPECT_EQ(bf16(tie, RoundMode::Odd), up);  // 1.0's last bit is even, so odd rounds up
  const float just_above_one = 1.0001f;
  EXPECT_EQ(bf16(just_above_one, RoundMode::Ceil), up);
  EXPECT_EQ(bf16(just_above_one, RoundMode::Round), 1.0f);
}

TEST(KernelsCastModes, Fp16OverflowAndInt32ToFp32) {
  auto h = [](float v, RoundMode m) {
    return fp16_to_fp32(static_cast<uint16_t>(cast_bits(ElemType::F32, v, ElemType::F16, m)));
  };
  EXPECT_TRUE(std::isinf(h(65520.0f, RoundMode::Round)));
  EXPECT_EQ(h(65520.0f, RoundMode::Trunc), 65504.0f);
  EXPECT_EQ(h(70000.0f, RoundMode::Floor), 65504.0f);
  EXPECT_TRUE(std::isinf(h(70000.0f, RoundMode::Ceil)));
  // 2^24 + 1 is a tie between 2^24 and 2^24 + 2 in fp32.
  auto f = [](int32_t v, RoundMode m) {
    uint32_t b = cast_bits(ElemType::I32, v, ElemType::F32, m);
    float x;
    std::memcpy(&x, &b, 4);
    return x;
  };
  EXPECT_EQ(f(16777217, RoundMode::Rint), 16777216.0f);
  EXPECT_EQ(f(16777217, RoundMode::Round), 16777218.0f);
  EXPECT_EQ(f(16777219, RoundMode::Trunc), 16777218.0f);
  EXPECT_EQ(f(-16777219, RoundMode::Floor), -16777220.0f);
}

// 'none' is the instruction's own rounding (pto-isa's TCVT without a mode): toward zero to an integer,
// to nearest even to a float.
TEST(KernelsCastModes, NoneTruncatesToIntegerRoundsToFloat) {
  auto i = [](float v) {
    return static_cast<int32_t>(cast_bits(ElemType::F32, v, ElemType::I32, RoundMode::None));
  };
  EXPECT_EQ(i(2.7f), 2);
  EXPECT_EQ(i(-2.7f), -2);
  EXPECT_EQ(i(-0.5f), 0);
  EXPECT_EQ(i(1e10f), 2147483647);
  EXPECT_EQ(i(std::nanf("")), 0);
  EXPECT_EQ(bf16(1.00390625f, RoundMode::None), 1.0f);       // a tie: to even
  EXPECT_EQ(bf16(1.01171875f, RoundMode::None), 1.015625f);  // a tie: to even, upward
}

TEST(KernelsCastModes, RowOfTiesToInt8Saturates) {
  const std::vector<float> src = {0.5f, 1.5f, -2.5f, 200.7f, -300.0f, -0.4f};
  std::vector<int8_t> dst(src.size());
  cast(TileView::contiguous(dst.data(), 1, static_cast<int>(dst.size()), ElemType::I8),
       TileView::contiguous(const_cast<float*>(src.data()), 1, static_cast<int>(src.size()), ElemType::F32),
       RoundMode::Round);
  EXPECT_EQ(dst, (std::vector<int8_t>{1, 2, -3, 127, -128, 0}));
}

}  // namespace
}  // namespace ptodist::kernels
