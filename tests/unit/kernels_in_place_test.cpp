// The kernels plan-memory lets run in place (its result over an operand's buffer, same offset) give
// the same bytes in place as into a separate buffer: binary ops with the result over either operand,
// ops with a scalar, exp, and casts that do not widen (the result's rows packed over the source's).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/elementwise.h"

namespace ptodist::kernels {
namespace {

constexpr int kRows = 5, kCols = 37;  // a tail past every SIMD width

std::vector<uint8_t> random_tile(ElemType t, unsigned seed) {
  std::vector<uint8_t> b(static_cast<size_t>(kRows) * kCols * elem_bytes(t));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-4, 4);
  for (int i = 0; i < kRows * kCols; ++i) store_scalar(t, b.data() + i * elem_bytes(t), dist(rng));
  return b;
}

TileView view(std::vector<uint8_t>& b, ElemType t) {
  return TileView::contiguous(b.data(), kRows, kCols, t);
}

const ElemType kTypes[] = {ElemType::F32, ElemType::F16, ElemType::BF16, ElemType::I32,
                           ElemType::I16, ElemType::I8,  ElemType::U8,   ElemType::I64};

TEST(KernelsInPlace, BinaryOpsOverEitherOperand) {
  for (ElemType t : kTypes)
    for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Maximum, BinaryOp::Minimum})
      for (int over = 0; over < 2; ++over) {
        auto a = random_tile(t, 1), b = random_tile(t, 2), want = random_tile(t, 3);
        binary(op, view(want, t), view(a, t), view(b, t));
        std::vector<uint8_t>& dst = over == 0 ? a : b;
        binary(op, view(dst, t), view(a, t), view(b, t));
        EXPECT_EQ(dst, want) << "type " << static_cast<int>(t) << " op " << static_cast<int>(op) << " over "
                             << (over == 0 ? "lhs" : "rhs");
      }
}

TEST(KernelsInPlace, ScalarOpsAndExp) {
  for (ElemType t : kTypes) {
    for (ScalarOp op : {ScalarOp::Add, ScalarOp::Sub, ScalarOp::Mul, ScalarOp::Div}) {
      auto a = random_tile(t, 4), want = random_tile(t, 5);
      binary_scalar(op, view(want, t), view(a, t), 3.0);
      binary_scalar(op, view(a, t), view(a, t), 3.0);
      EXPECT_EQ(a, want) << "type " << static_cast<int>(t);
    }
    auto a = random_tile(t, 6), want = random_tile(t, 7);
    exp(view(want, t), view(a, t));
    exp(view(a, t), view(a, t));
    EXPECT_EQ(a, want) << "exp, type " << static_cast<int>(t);
  }
}

TEST(KernelsInPlace, CastsThatDoNotWiden) {
  for (ElemType from : kTypes)
    for (ElemType to : kTypes) {
      if (elem_bytes(to) > elem_bytes(from)) continue;
      auto src = random_tile(from, 8);
      std::vector<uint8_t> want(static_cast<size_t>(kRows) * kCols * elem_bytes(to));
      cast(TileView::contiguous(want.data(), kRows, kCols, to), view(src, from));
      cast(TileView::contiguous(src.data(), kRows, kCols, to), view(src, from));
      EXPECT_EQ(0, std::memcmp(src.data(), want.data(), want.size()))
          << "cast " << static_cast<int>(from) << " -> " << static_cast<int>(to);
    }
}

}  // namespace
}  // namespace ptodist::kernels
