// Internal AVX2 building blocks for fp32 rows: lane-wise ops with scalar twins that give equal bits.
#pragma once

#include <immintrin.h>

#include <cmath>

namespace ptodist::kernels::detail {

// out[i] = vop(a[i], b[i]) on 8 lanes at a time, sop on the tail; out may alias a or b exactly.
template <typename V, typename S>
void map2_f32(const float* a, const float* b, float* out, long n, V vop, S sop) {
  long i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, vop(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  for (; i < n; ++i) out[i] = sop(a[i], b[i]);
}

// out[i] = vop(a[i]) likewise.
template <typename V, typename S>
void map1_f32(const float* a, float* out, long n, V vop, S sop) {
  long i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, vop(_mm256_loadu_ps(a + i)));
  for (; i < n; ++i) out[i] = sop(a[i]);
}

// max/min that return NaN when either input is NaN. vmaxps returns its second operand when either is
// NaN or both are equal; the blend adds "first operand NaN". The scalar twins follow the same rule
// (including which zero wins for max(+0, -0)), so vector body and tail agree bit for bit.
inline __m256 max_nan(__m256 a, __m256 b) {
  return _mm256_blendv_ps(_mm256_max_ps(a, b), a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}
inline __m256 min_nan(__m256 a, __m256 b) {
  return _mm256_blendv_ps(_mm256_min_ps(a, b), a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}
inline float max_nan(float a, float b) {
  return std::isnan(a) ? a : (a > b ? a : b);
}
inline float min_nan(float a, float b) {
  return std::isnan(a) ? a : (a < b ? a : b);
}

// exp in fp32 (vector and scalar with identical operations): Cody-Waite reduction x = n ln2 + r with
// ln2 split in two, a degree-6 polynomial for e^r on |r| <= ln2/2 (the Cephes expf coefficients), and
// the scale 2^n applied as two exact powers of two so results that end up subnormal round only once.
__m256 exp_f32(__m256 x);
float exp_f32(float x);

}  // namespace ptodist::kernels::detail
