// Elementwise binary ops, ops with a scalar, and fill: fp32 AVX2 rows (fmod scalar), AVX2 int32, scalar
// other ints.
#include "ptodist/kernels/elementwise.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "element_access.h"
#include "float_simd.h"
#include "ptodist/kernels/cast.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace {

using detail::kBlock;

// Applies op to n fp32 lanes: out = a (op) b. out may alias a or b.
void binary_f32(BinaryOp op, const float* a, const float* b, float* out, long n) {
  switch (op) {
    case BinaryOp::Add:
      return detail::map2_f32(
          a, b, out, n, [](__m256 x, __m256 y) { return _mm256_add_ps(x, y); },
          [](float x, float y) { return x + y; });
    case BinaryOp::Sub:
      return detail::map2_f32(
          a, b, out, n, [](__m256 x, __m256 y) { return _mm256_sub_ps(x, y); },
          [](float x, float y) { return x - y; });
    case BinaryOp::Mul:
      return detail::map2_f32(
          a, b, out, n, [](__m256 x, __m256 y) { return _mm256_mul_ps(x, y); },
          [](float x, float y) { return x * y; });
    case BinaryOp::Div:
      return detail::map2_f32(
          a, b, out, n, [](__m256 x, __m256 y) { return _mm256_div_ps(x, y); },
          [](float x, float y) { return x / y; });
    case BinaryOp::Maximum:
      return detail::map2_f32(
          a, b, out, n, [](__m256 x, __m256 y) { return detail::max_nan(x, y); },
          [](float x, float y) { return detail::max_nan(x, y); });
    case BinaryOp::Minimum:
      return detail::map2_f32(
          a, b, out, n, [](__m256 x, __m256 y) { return detail::min_nan(x, y); },
          [](float x, float y) { return detail::min_nan(x, y); });
    case BinaryOp::Fmod:  // exact in fp32 (fmod never rounds), so no SIMD approximation
      for (long i = 0; i < n; ++i) out[i] = std::fmod(a[i], b[i]);
      return;
  }
}

// One row of a float type: F32 in place, F16/BF16 through fp32 blocks with one rounding at the end.
void binary_row_float(BinaryOp op, ElemType t, char* out, const char* a, const char* b, long cols) {
  if (t == ElemType::F32) {
    binary_f32(op, reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
               reinterpret_cast<float*>(out), cols);
    return;
  }
  float fa[kBlock], fb[kBlock];
  for (long c0 = 0; c0 < cols; c0 += kBlock) {
    const long n = std::min<long>(kBlock, cols - c0);
    detail::load_f32(t, a + c0 * 2, fa, n);
    detail::load_f32(t, b + c0 * 2, fb, n);
    binary_f32(op, fa, fb, fa, n);
    detail::store_f32(t, fa, out + c0 * 2, n);
  }
}

template <typename T>
T int_binary(BinaryOp op, T a, T b) {
  // Wrapping arithmetic in uint64 (well defined), narrowed modulo 2^bits.
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case BinaryOp::Add:
      return static_cast<T>(ua + ub);
    case BinaryOp::Sub:
      return static_cast<T>(ua - ub);
    case BinaryOp::Mul:
      return static_cast<T>(ua * ub);
    case BinaryOp::Div:
      if (b == 0) return 0;
      if constexpr (std::numeric_limits<T>::is_signed) {
        if (a == std::numeric_limits<T>::min() && b == -1) return a;
      }
      return static_cast<T>(a / b);
    case BinaryOp::Maximum:
      return a > b ? a : b;
    case BinaryOp::Minimum:
      return a < b ? a : b;
    case BinaryOp::Fmod:
      if (b == 0) return 0;
      if constexpr (std::numeric_limits<T>::is_signed) {
        if (a == std::numeric_limits<T>::min() && b == -1) return 0;
      }
      return static_cast<T>(a % b);
  }
  return 0;
}

// The int32 ops AVX2 has directly; returns false for Div, which stays scalar.
bool binary_row_i32_simd(BinaryOp op, int32_t* out, const int32_t* a, const int32_t* b, long cols) {
  __m256i (*vop)(__m256i, __m256i) = nullptr;
  switch (op) {
    case BinaryOp::Add:
      vop = [](__m256i x, __m256i y) { return _mm256_add_epi32(x, y); };
      break;
    case BinaryOp::Sub:
      vop = [](__m256i x, __m256i y) { return _mm256_sub_epi32(x, y); };
      break;
    case BinaryOp::Mul:
      vop = [](__m256i x, __m256i y) { return _mm256_mullo_epi32(x, y); };
      break;
    case BinaryOp::Maximum:
      vop = [](__m256i x, __m256i y) { return _mm256_max_epi32(x, y); };
      break;
    case BinaryOp::Minimum:
      vop = [](__m256i x, __m256i y) { return _mm256_min_epi32(x, y); };
      break;
    case BinaryOp::Div:
    case BinaryOp::Fmod:
      return false;
  }
  long i = 0;
  for (; i + 8 <= cols; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), vop(x, y));
  }
  for (; i < cols; ++i) out[i] = int_binary<int32_t>(op, a[i], b[i]);
  return true;
}

void normalize_bool(char* row, long cols) {
  for (long i = 0; i < cols; ++i) row[i] = row[i] != 0;
}

void binary_row_int(BinaryOp op, ElemType t, char* out, const char* a, const char* b, long cols) {
  if (t == ElemType::I32 &&
      binary_row_i32_simd(op, reinterpret_cast<int32_t*>(out), reinterpret_cast<const int32_t*>(a),
                          reinterpret_cast<const int32_t*>(b), cols)) {
    return;
  }
  detail::visit_int(t, [&](auto tag) {
    using T = decltype(tag);
    auto* o = reinterpret_cast<T*>(out);
    const auto* x = reinterpret_cast<const T*>(a);
    const auto* y = reinterpret_cast<const T*>(b);
    for (long i = 0; i < cols; ++i) o[i] = int_binary<T>(op, x[i], y[i]);
  });
  if (t == ElemType::Bool) normalize_bool(out, cols);
}

void scalar_row_float(ScalarOp op, ElemType t, char* out, const char* a, float s, long cols) {
  const __m256 vs = _mm256_set1_ps(s);
  auto apply = [&](const float* x, float* o, long n) {
    switch (op) {
      case ScalarOp::Add:
        detail::map1_f32(
            x, o, n, [&](__m256 v) { return _mm256_add_ps(v, vs); }, [&](float v) { return v + s; });
        break;
      case ScalarOp::Sub:
        detail::map1_f32(
            x, o, n, [&](__m256 v) { return _mm256_sub_ps(v, vs); }, [&](float v) { return v - s; });
        break;
      case ScalarOp::Mul:
        detail::map1_f32(
            x, o, n, [&](__m256 v) { return _mm256_mul_ps(v, vs); }, [&](float v) { return v * s; });
        break;
      case ScalarOp::Div:  // a true division, not a multiply by 1/s, so results match numpy's fp32
        detail::map1_f32(
            x, o, n, [&](__m256 v) { return _mm256_div_ps(v, vs); }, [&](float v) { return v / s; });
        break;
      case ScalarOp::Maximum:  // NaN propagates as in the tile-tile maximum
        detail::map1_f32(
            x, o, n, [&](__m256 v) { return detail::max_nan(v, vs); },
            [&](float v) { return detail::max_nan(v, s); });
        break;
      case ScalarOp::Minimum:
        detail::map1_f32(
            x, o, n, [&](__m256 v) { return detail::min_nan(v, vs); },
            [&](float v) { return detail::min_nan(v, s); });
        break;
      case ScalarOp::Fmod:
        for (long i = 0; i < n; ++i) o[i] = std::fmod(x[i], s);
        break;
    }
  };
  if (t == ElemType::F32) {
    apply(reinterpret_cast<const float*>(a), reinterpret_cast<float*>(out), cols);
    return;
  }
  float buf[kBlock];
  for (long c0 = 0; c0 < cols; c0 += kBlock) {
    const long n = std::min<long>(kBlock, cols - c0);
    detail::load_f32(t, a + c0 * 2, buf, n);
    apply(buf, buf, n);
    detail::store_f32(t, buf, out + c0 * 2, n);
  }
}

void scalar_row_int(ScalarOp op, ElemType t, char* out, const char* a, double scalar, long cols) {
  const BinaryOp bop = op == ScalarOp::Add       ? BinaryOp::Add
                       : op == ScalarOp::Sub     ? BinaryOp::Sub
                       : op == ScalarOp::Mul     ? BinaryOp::Mul
                       : op == ScalarOp::Maximum ? BinaryOp::Maximum
                       : op == ScalarOp::Minimum ? BinaryOp::Minimum
                       : op == ScalarOp::Fmod    ? BinaryOp::Fmod
                                                 : BinaryOp::Div;
  detail::visit_int(t, [&](auto tag) {
    using T = decltype(tag);
    T s;
    store_scalar(t, &s, scalar);
    auto* o = reinterpret_cast<T*>(out);
    const auto* x = reinterpret_cast<const T*>(a);
    for (long i = 0; i < cols; ++i) o[i] = int_binary<T>(bop, x[i], s);
  });
  if (t == ElemType::Bool) normalize_bool(out, cols);
}

bool same_type_and_shape(const TileView& a, const TileView& b) {
  return a.type == b.type && a.rows == b.rows && a.cols == b.cols;
}

}  // namespace

void binary(BinaryOp op, const TileView& dst, const TileView& lhs, const TileView& rhs) {
  PTODIST_INTERNAL_ASSERT(same_type_and_shape(dst, lhs) && same_type_and_shape(dst, rhs),
                          "binary: operands differ in type or shape");
  for (int r = 0; r < dst.rows; ++r) {
    if (elem_is_float(dst.type)) {
      binary_row_float(op, dst.type, dst.row_ptr(r), lhs.row_ptr(r), rhs.row_ptr(r), dst.cols);
    } else {
      binary_row_int(op, dst.type, dst.row_ptr(r), lhs.row_ptr(r), rhs.row_ptr(r), dst.cols);
    }
  }
}

void binary_scalar(ScalarOp op, const TileView& dst, const TileView& src, double scalar) {
  PTODIST_INTERNAL_ASSERT(same_type_and_shape(dst, src),
                          "binary_scalar: dst and src differ in type or shape");
  for (int r = 0; r < dst.rows; ++r) {
    if (elem_is_float(dst.type)) {
      scalar_row_float(op, dst.type, dst.row_ptr(r), src.row_ptr(r), static_cast<float>(scalar), dst.cols);
    } else {
      scalar_row_int(op, dst.type, dst.row_ptr(r), src.row_ptr(r), scalar, dst.cols);
    }
  }
}

void fill(const TileView& dst, double value) {
  if (dst.rows == 0 || dst.cols == 0) return;
  const int eb = elem_bytes(dst.type);
  char* first = dst.row_ptr(0);
  store_scalar(dst.type, first, value);
  for (long c = 1; c < dst.cols; ++c) std::memcpy(first + c * eb, first, static_cast<size_t>(eb));
  for (int r = 1; r < dst.rows; ++r) std::memcpy(dst.row_ptr(r), first, static_cast<size_t>(dst.row_bytes()));
}

}  // namespace ptodist::kernels
