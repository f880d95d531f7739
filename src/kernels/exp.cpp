// Vectorised fp32 exp and its scalar twin, plus the exp tile kernel.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "element_access.h"
#include "float_simd.h"
#include "ptodist/kernels/elementwise.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace detail {
namespace {

// Inputs are clamped to this range first: above it the result is inf, below it 0 (e^-105 < 2^-151).
constexpr float kMaxIn = 88.8f, kMinIn = -105.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
constexpr float kP[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                         4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};

float pow2_scalar(int e) {
  const uint32_t bits = static_cast<uint32_t>(e + 127) << 23;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

__m256 pow2_vec(__m256i e) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(e, _mm256_set1_epi32(127)), 23));
}

}  // namespace

__m256 exp_f32(__m256 x0) {
  const __m256 x = _mm256_max_ps(_mm256_min_ps(x0, _mm256_set1_ps(kMaxIn)), _mm256_set1_ps(kMinIn));
  const __m256 n = _mm256_floor_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(kLog2e), _mm256_set1_ps(0.5f)));
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Hi), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), r);
  __m256 p = _mm256_set1_ps(kP[0]);
  for (int i = 1; i < 6; ++i) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kP[i]));
  __m256 y = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
  y = _mm256_add_ps(y, _mm256_set1_ps(1.0f));
  const __m256i ni = _mm256_cvtps_epi32(n);
  const __m256i n1 = _mm256_srai_epi32(ni, 1);
  y = _mm256_mul_ps(_mm256_mul_ps(y, pow2_vec(n1)), pow2_vec(_mm256_sub_epi32(ni, n1)));
  return _mm256_blendv_ps(y, x0, _mm256_cmp_ps(x0, x0, _CMP_UNORD_Q));  // NaN in, NaN out
}

float exp_f32(float x0) {
  if (std::isnan(x0)) return x0;
  const float x = std::max(std::min(x0, kMaxIn), kMinIn);
  const float n = std::floor(std::fma(x, kLog2e, 0.5f));
  float r = std::fma(-n, kLn2Hi, x);
  r = std::fma(-n, kLn2Lo, r);
  float p = kP[0];
  for (int i = 1; i < 6; ++i) p = std::fma(p, r, kP[i]);
  float y = std::fma(p, r * r, r);
  y = y + 1.0f;
  const int ni = static_cast<int>(n);
  const int n1 = ni >> 1;
  return (y * pow2_scalar(n1)) * pow2_scalar(ni - n1);
}

}  // namespace detail

namespace {

void exp_row_float(ElemType t, const char* in, char* out, long cols) {
  const auto vop = [](__m256 v) { return detail::exp_f32(v); };
  const auto sop = [](float v) { return detail::exp_f32(v); };
  if (t == ElemType::F32) {
    detail::map1_f32(reinterpret_cast<const float*>(in), reinterpret_cast<float*>(out), cols, vop, sop);
    return;
  }
  float buf[detail::kBlock];
  for (long c0 = 0; c0 < cols; c0 += detail::kBlock) {
    const long n = std::min<long>(detail::kBlock, cols - c0);
    detail::load_f32(t, in + c0 * 2, buf, n);
    detail::map1_f32(buf, buf, n, vop, sop);
    detail::store_f32(t, buf, out + c0 * 2, n);
  }
}

// Integers go through fp32 and come back with the cast rule.
void exp_row_int(ElemType t, const char* in, char* out, long cols) {
  const int eb = elem_bytes(t);
  for (long c = 0; c < cols; ++c) {
    const float v = static_cast<float>(detail::load_int(t, in + c * eb));
    detail::store_from_float(t, out + c * eb, detail::exp_f32(v));
  }
}

}  // namespace

void exp(const TileView& dst, const TileView& src) {
  PTODIST_INTERNAL_ASSERT(dst.type == src.type && dst.rows == src.rows && dst.cols == src.cols,
                          "exp: dst and src differ in type or shape");
  for (int r = 0; r < src.rows; ++r) {
    if (elem_is_float(src.type)) {
      exp_row_float(src.type, src.row_ptr(r), dst.row_ptr(r), src.cols);
    } else {
      exp_row_int(src.type, src.row_ptr(r), dst.row_ptr(r), src.cols);
    }
  }
}

}  // namespace ptodist::kernels
