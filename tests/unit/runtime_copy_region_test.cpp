// copy_region against an element-by-element reference: dense, strided, unit and mergeable dims, type
// conversion, and more dims than the fast path's collapsed form holds.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "../../src/runtime/tile_math.h"

namespace ptodist::runtime {
namespace {

struct Layout {
  std::vector<long long> shape, src_strides, dst_strides;
};

long long extent(const std::vector<long long>& shape, const std::vector<long long>& strides) {
  long long last = 0;
  for (size_t i = 0; i < shape.size(); ++i) last += (shape[i] - 1) * strides[i];
  return last + 1;
}

// The reference: one element at a time through load_element / store_element.
void reference_copy(const std::byte* src, ir::DType st, std::byte* dst, ir::DType dt, const Layout& l) {
  const size_t rank = l.shape.size();
  std::vector<long long> idx(rank, 0);
  long long count = 1;
  for (long long d : l.shape) count *= d;
  for (long long n = 0; n < count; ++n) {
    long long so = 0, doff = 0;
    for (size_t i = 0; i < rank; ++i) {
      so += idx[i] * l.src_strides[i];
      doff += idx[i] * l.dst_strides[i];
    }
    store_element(dst + doff * ir::dtype_bytes(dt), dt, load_element(src + so * ir::dtype_bytes(st), st));
    for (size_t i = rank; i-- > 0;) {
      if (++idx[i] < l.shape[i]) break;
      idx[i] = 0;
    }
  }
}

// Fills src with small integers (exact in every float type), copies both ways, compares the bytes of
// the whole destination, so bytes outside the region must stay untouched too.
void expect_same_as_reference(const Layout& l, ir::DType st, ir::DType dt) {
  std::vector<std::byte> src(extent(l.shape, l.src_strides) * ir::dtype_bytes(st));
  const long long dst_elems = extent(l.shape, l.dst_strides);
  for (long long i = 0; i * ir::dtype_bytes(st) < static_cast<long long>(src.size()); ++i)
    store_element(src.data() + i * ir::dtype_bytes(st), st, static_cast<double>(i % 97));
  std::vector<std::byte> fast(dst_elems * ir::dtype_bytes(dt), std::byte{0x5a});
  std::vector<std::byte> slow = fast;
  copy_region(src.data(), st, l.src_strides, fast.data(), dt, l.dst_strides, l.shape);
  reference_copy(src.data(), st, slow.data(), dt, l);
  EXPECT_EQ(0, std::memcmp(fast.data(), slow.data(), fast.size()));
}

std::vector<long long> dense(const std::vector<long long>& shape) {
  std::vector<long long> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

TEST(RuntimeCopyRegion, DenseToDenseIsOneRun) {
  Layout l{{4, 8, 16}, dense({4, 8, 16}), dense({4, 8, 16})};
  expect_same_as_reference(l, ir::DType::FP16, ir::DType::FP16);
}

TEST(RuntimeCopyRegion, TileOutOfAWiderTensor) {
  // A [1, 5, 7] region of a [2, 9, 11] tensor into a dense tile: unit dim dropped, rows strided.
  Layout l{{1, 5, 7}, dense({2, 9, 11}), dense({1, 5, 7})};
  expect_same_as_reference(l, ir::DType::FP32, ir::DType::FP32);
  std::swap(l.src_strides, l.dst_strides);
  expect_same_as_reference(l, ir::DType::FP32, ir::DType::FP32);
}

TEST(RuntimeCopyRegion, OuterDimsAroundRowBlocks) {
  // 3-D on both sides with different row strides: an outer loop around 2-D copies.
  Layout l{{3, 4, 5}, {100, 10, 1}, {40, 8, 1}};
  expect_same_as_reference(l, ir::DType::INT32, ir::DType::INT32);
}

TEST(RuntimeCopyRegion, ConvertsWhenTypesDiffer) {
  Layout l{{3, 6}, {10, 1}, dense({3, 6})};
  expect_same_as_reference(l, ir::DType::FP16, ir::DType::FP32);
  expect_same_as_reference(l, ir::DType::FP32, ir::DType::BF16);
  Layout full{{2, 3, 4}, dense({2, 3, 4}), dense({2, 3, 4})};
  expect_same_as_reference(full, ir::DType::INT32, ir::DType::FP32);
}

TEST(RuntimeCopyRegion, StridedInnermostDim) {
  Layout l{{4, 3}, {1, 4}, {3, 1}};  // a transposed read
  expect_same_as_reference(l, ir::DType::FP32, ir::DType::FP32);
  Layout gaps{{2, 5}, {20, 2}, {5, 1}};
  expect_same_as_reference(gaps, ir::DType::INT16, ir::DType::INT16);
}

TEST(RuntimeCopyRegion, ScalarAndEmptyRegions) {
  expect_same_as_reference(Layout{{}, {}, {}}, ir::DType::FP32, ir::DType::FP16);
  expect_same_as_reference(Layout{{1, 1, 1}, {7, 3, 1}, {1, 1, 1}}, ir::DType::INT32, ir::DType::INT32);
  std::vector<std::byte> src(16), dst(16, std::byte{1});
  const std::vector<long long> strides{4, 1}, empty_rows{0, 4};
  copy_region(src.data(), ir::DType::FP32, strides, dst.data(), ir::DType::FP32, strides, empty_rows);
  EXPECT_EQ(dst, std::vector<std::byte>(16, std::byte{1}));
}

TEST(RuntimeCopyRegion, MoreDimsThanTheFastPathHolds) {
  std::vector<long long> shape(10, 2);
  Layout l{shape, dense(shape), dense(shape)};
  l.src_strides[0] *= 2;  // not mergeable with the next dim
  expect_same_as_reference(l, ir::DType::FP32, ir::DType::FP32);
}

TEST(RuntimeCopyRegion, RandomLayoutsMatchTheReference) {
  std::mt19937 gen(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); };
  for (int trial = 0; trial < 200; ++trial) {
    const int rank = pick(1, 4);
    Layout l;
    for (int i = 0; i < rank; ++i) l.shape.push_back(pick(1, 5));
    // Each side: dense over a tensor that is as large or larger in every dim (a sub-region).
    auto strides_of_container = [&] {
      std::vector<long long> outer(l.shape);
      for (long long& d : outer) d += pick(0, 2);
      return dense(outer);
    };
    l.src_strides = strides_of_container();
    l.dst_strides = strides_of_container();
    const ir::DType types[] = {ir::DType::FP32, ir::DType::FP16, ir::DType::INT32};
    expect_same_as_reference(l, types[pick(0, 2)], types[pick(0, 2)]);
  }
}

}  // namespace
}  // namespace ptodist::runtime
