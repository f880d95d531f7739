// Row reductions: fp32 accumulation for float tiles (AVX2 partial sums), int64 for integer tiles.
#include "ptodist/kernels/reduce.h"

#include <algorithm>
#include <limits>

#include "element_access.h"
#include "float_simd.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace {

using detail::kBlock;

float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

float hmax(__m256 v) {
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, v);
  float m = lanes[0];
  for (int i = 1; i < 8; ++i) m = detail::max_nan(m, lanes[i]);
  return m;
}

// Folds n fp32 values into acc (eight lane partials, then the tail).
void sum_block(const float* x, long n, __m256& acc, float& tail) {
  long i = 0;
  for (; i + 8 <= n; i += 8) acc = _mm256_add_ps(acc, _mm256_loadu_ps(x + i));
  for (; i < n; ++i) tail += x[i];
}

void max_block(const float* x, long n, __m256& acc, float& tail) {
  long i = 0;
  for (; i + 8 <= n; i += 8) acc = detail::max_nan(_mm256_loadu_ps(x + i), acc);
  for (; i < n; ++i) tail = detail::max_nan(x[i], tail);
}

// Reduces one float row to an fp32 value with the block function `fold`.
template <typename Fold>
float reduce_row_float(ElemType t, const char* row, long cols, float init, Fold fold, bool is_sum) {
  __m256 acc = _mm256_set1_ps(init);
  float tail = init;
  float buf[kBlock];
  for (long c0 = 0; c0 < cols; c0 += kBlock) {
    const long n = std::min<long>(kBlock, cols - c0);
    const float* x = reinterpret_cast<const float*>(row) + c0;
    if (t != ElemType::F32) {
      detail::load_f32(t, row + c0 * 2, buf, n);
      x = buf;
    }
    fold(x, n, acc, tail);
  }
  return is_sum ? hsum(acc) + tail : detail::max_nan(hmax(acc), tail);
}

int64_t reduce_row_int(ElemType t, const char* row, long cols, bool is_sum) {
  const int eb = elem_bytes(t);
  int64_t acc = is_sum ? 0 : detail::visit_int(t, [](auto tag) {
    return static_cast<int64_t>(std::numeric_limits<decltype(tag)>::min());
  });
  for (long c = 0; c < cols; ++c) {
    const int64_t v = detail::load_int(t, row + c * eb);
    acc = is_sum ? static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(v))
                 : std::max(acc, v);
  }
  return acc;
}

void reduce(const TileView& dst, const TileView& src, bool is_sum) {
  PTODIST_INTERNAL_ASSERT(dst.rows == src.rows && dst.cols == 1, "row reduction: dst must be [rows, 1]");
  const float init = is_sum ? 0.0f : -std::numeric_limits<float>::infinity();
  for (int r = 0; r < src.rows; ++r) {
    if (elem_is_float(src.type)) {
      const float v = is_sum ? reduce_row_float(src.type, src.row_ptr(r), src.cols, init, sum_block, true)
                             : reduce_row_float(src.type, src.row_ptr(r), src.cols, init, max_block, false);
      detail::store_from_float(dst.type, dst.row_ptr(r), v);
    } else {
      detail::store_from_int(dst.type, dst.row_ptr(r),
                             reduce_row_int(src.type, src.row_ptr(r), src.cols, is_sum));
    }
  }
}

}  // namespace

void row_sum(const TileView& dst, const TileView& src) {
  reduce(dst, src, true);
}

void row_max(const TileView& dst, const TileView& src) {
  reduce(dst, src, false);
}

}  // namespace ptodist::kernels
