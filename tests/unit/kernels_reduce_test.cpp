// Row reductions (sum, max) and strided 2-D copies.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/copy.h"
#include "ptodist/kernels/reduce.h"

namespace ptodist::kernels {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A dense [rows, cols] tile of type t whose element (i, j) is f(i, j), rounded into t.
template <typename F>
std::vector<uint8_t> make(ElemType t, int rows, int cols, F f) {
  std::vector<uint8_t> v(static_cast<size_t>(rows) * cols * elem_bytes(t) + 1);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      store_scalar(t, v.data() + (static_cast<size_t>(i) * cols + j) * elem_bytes(t), f(i, j));
  return v;
}

double at(ElemType t, const std::vector<uint8_t>& v, int i) {
  return load_scalar(t, v.data() + i * elem_bytes(t));
}

TEST(KernelsReduce, RowSumOfFloatTypes) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> vals(5 * 301);
  for (auto& x : vals) x = dist(rng);
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16}) {
    auto src = make(t, 5, 301, [&](int i, int j) { return vals[i * 301 + j]; });
    for (ElemType dt : {ElemType::F32, t}) {
      std::vector<uint8_t> dst(5 * 4);
      row_sum(TileView::contiguous(dst.data(), 5, 1, dt), TileView::contiguous(src.data(), 5, 301, t));
      for (int i = 0; i < 5; ++i) {
        double ref = 0, scale = 0;
        for (int j = 0; j < 301; ++j) {
          const double x = at(t, src, i * 301 + j);  // the rounded input
          ref += x;
          scale += std::abs(x);
        }
        const double tol =
            1e-5 * scale + (dt == ElemType::F32 ? 0 : std::abs(ref) * (dt == ElemType::F16 ? 1e-3 : 8e-3));
        EXPECT_NEAR(at(dt, dst, i), ref, tol) << elem_name(t) << "->" << elem_name(dt) << " row " << i;
      }
    }
  }
}

TEST(KernelsReduce, RowMaxPropagatesNaNAndHandlesInfinities) {
  const int cols = 19;
  auto src = make(ElemType::F32, 3, cols, [](int i, int j) {
    if (i == 0) return j == 17 ? 42.0 : -static_cast<double>(j);
    if (i == 1) return j == 3 ? static_cast<double>(kNaN) : 1.0;
    return -static_cast<double>(kInf);
  });
  std::vector<float> dst(3);
  row_max(TileView::contiguous(dst.data(), 3, 1, ElemType::F32),
          TileView::contiguous(src.data(), 3, cols, ElemType::F32));
  EXPECT_EQ(dst[0], 42.0f);
  EXPECT_TRUE(std::isnan(dst[1]));
  EXPECT_EQ(dst[2], -kInf);
  // A NaN in the tail (past the last full 8-lane block) propagates too.
  auto tail = make(ElemType::F16, 1, 10, [](int, int j) { return j == 9 ? static_cast<double>(kNaN) : 5.0; });
  float m = 0;
  row_max(TileView::contiguous(&m, 1, 1, ElemType::F32),
          TileView::contiguous(tail.data(), 1, 10, ElemType::F16));
  EXPECT_TRUE(std::isnan(m));
}

TEST(KernelsReduce, IntegerRowsAccumulateInInt64) {
  auto src = make(ElemType::I32, 2, 3, [](int i, int j) { return i == 0 ? 2e9 : -j - 1.0; });
  std::vector<int64_t> wide(2);
  std::vector<int32_t> narrow(2);
  row_sum(TileView::contiguous(wide.data(), 2, 1, ElemType::I64),
          TileView::contiguous(src.data(), 2, 3, ElemType::I32));
  row_sum(TileView::contiguous(narrow.data(), 2, 1, ElemType::I32),
          TileView::contiguous(src.data(), 2, 3, ElemType::I32));
  EXPECT_EQ(wide[0], 6000000000LL);
  EXPECT_EQ(narrow[0], std::numeric_limits<int32_t>::max());  // stored with saturation
  EXPECT_EQ(narrow[1], -6);
  int8_t mx[2];
  auto s8 = make(ElemType::I8, 2, 4, [](int i, int j) { return i == 0 ? -100.0 + j : -128.0; });
  row_max(TileView::contiguous(mx, 2, 1, ElemType::I8), TileView::contiguous(s8.data(), 2, 4, ElemType::I8));
  EXPECT_EQ(mx[0], -97);
  EXPECT_EQ(mx[1], -128);
}

TEST(KernelsReduce, EmptyRows) {
  float s = 7, m = 7;
  int32_t im = 7;
  uint8_t dummy = 0;
  row_sum(TileView::contiguous(&s, 1, 1, ElemType::F32), TileView::contiguous(&dummy, 1, 0, ElemType::F16));
  row_max(TileView::contiguous(&m, 1, 1, ElemType::F32), TileView::contiguous(&dummy, 1, 0, ElemType::F32));
  row_max(TileView::contiguous(&im, 1, 1, ElemType::I32), TileView::contiguous(&dummy, 1, 0, ElemType::I16));
  EXPECT_EQ(s, 0.0f);
  EXPECT_EQ(m, -kInf);
  EXPECT_EQ(im, std::numeric_limits<int16_t>::min());
}

TEST(KernelsCopy, TileToGmRegionAndBack) {
  // GM tensor [4, 10] of i16; the tile is the [2, 3] region at (1, 4).
  std::vector<int16_t> gm(40);
  for (int i = 0; i < 40; ++i) gm[i] = static_cast<int16_t>(i);
  const TileView gm_view = TileView::contiguous(gm.data(), 4, 10, ElemType::I16);
  std::vector<int16_t> tile(6);
  copy(TileView::contiguous(tile.data(), 2, 3, ElemType::I16), gm_view.sub(1, 4, 2, 3));
  EXPECT_EQ(tile, (std::vector<int16_t>{14, 15, 16, 24, 25, 26}));
  for (auto& x : tile) x = static_cast<int16_t>(-x);
  copy(gm_view.sub(2, 0, 2, 3), TileView::contiguous(tile.data(), 2, 3, ElemType::I16));
  EXPECT_EQ(gm[20], -14);
  EXPECT_EQ(gm[32], -26);
  EXPECT_EQ(gm[23], 23);  // outside the region: untouched
  EXPECT_EQ(gm[19], 19);
}

TEST(KernelsCopy, DenseAndOverlappingRows) {
  std::vector<uint8_t> a(12), b(12, 0);
  for (int i = 0; i < 12; ++i) a[i] = static_cast<uint8_t>(i);
  copy_2d(b.data(), 4, a.data(), 4, 3, 4);
  EXPECT_EQ(a, b);
  copy_2d(a.data() + 1, 4, a.data(), 4, 3, 3);  // each row shifts right by one byte, in place
  EXPECT_EQ(a, (std::vector<uint8_t>{0, 0, 1, 2, 4, 4, 5, 6, 8, 8, 9, 10}));
  copy_2d(nullptr, 0, nullptr, 0, 0, 4);  // nothing to do
}

}  // namespace
}  // namespace ptodist::kernels
