// fp16/bf16 <-> fp32 conversions: portable scalar reference and F16C/AVX2 bulk paths with equal results.
#include "ptodist/kernels/convert.h"

#include <immintrin.h>

#include <cstring>

namespace ptodist::kernels {
namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

uint16_t fp32_to_fp16(float f) {
  uint32_t x = bits_of(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) {  // NaN: keep the top 10 payload bits and set the quiet bit, as F16C does
    return sign | 0x7e00u | static_cast<uint16_t>((x >> 13) & 0x3ffu);
  }
  if (x >= 0x477ff000u) return sign | 0x7c00u;  // >= 65520 rounds to inf (and inf stays inf)
  if (x < 0x38800000u) {
    // Below 2^-14 the result is subnormal (unit 2^-24). Adding 0.5f puts the value's bits at 2^-24
    // granularity in the low mantissa bits, and the FPU's own rounding is the round-to-nearest-even.
    const float shifted = float_of(x) + 0.5f;
    return sign | static_cast<uint16_t>(bits_of(shifted) - bits_of(0.5f));
  }
  // Normal: rebias the exponent (127 -> 15) and round away the low 13 mantissa bits, ties to even.
  const uint32_t odd = (x >> 13) & 1u;
  x += (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + odd;
  return sign | static_cast<uint16_t>(x >> 13);
}

float fp16_to_fp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = h & 0x7c00u;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x7c00u) {  // inf or NaN; a NaN is returned quiet, as F16C's vcvtph2ps does
    return float_of(sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0u));
  }
  if (exp == 0) {  // zero or subnormal: mant * 2^-24 is exact in fp32
    const float v = static_cast<float>(mant) * float_of(0x33800000u);
    return float_of(sign | bits_of(v));
  }
  return float_of(sign |
                  ((static_cast<uint32_t>(h & 0x7fffu) << 13) + (static_cast<uint32_t>(127 - 15) << 23)));
}

uint16_t fp32_to_bf16(float f) {
  const uint32_t x = bits_of(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) {  // NaN: truncate the payload, force quiet so it stays a NaN
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  }
  const uint32_t odd = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7fffu + odd) >> 16);
}

float bf16_to_fp32(uint16_t b) {
  return float_of(static_cast<uint32_t>(b) << 16);
}

void fp16_to_fp32_n(const uint16_t* src, float* dst, long n) {
  long i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; ++i) dst[i] = fp16_to_fp32(src[i]);
}

void fp32_to_fp16_n(const float* src, uint16_t* dst, long n) {
  long i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
  for (; i < n; ++i) dst[i] = fp32_to_fp16(src[i]);
}

void bf16_to_fp32_n(const uint16_t* src, float* dst, long n) {
  long i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_slli_epi32(w, 16));
  }
  for (; i < n; ++i) dst[i] = bf16_to_fp32(src[i]);
}

namespace {

// Eight fp32 -> bf16 with the same rounding and NaN rule as fp32_to_bf16, as 32-bit lanes.
__m256i round_to_bf16_lanes(__m256 v) {
  const __m256i x = _mm256_castps_si256(v);
  const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
  const __m256i rounded =
      _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), odd), 16);
  const __m256i quiet_nan = _mm256_or_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(0x40));
  const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  return _mm256_blendv_epi8(rounded, quiet_nan, is_nan);
}

}  // namespace

void fp32_to_bf16_n(const float* src, uint16_t* dst, long n) {
  long i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i lo = round_to_bf16_lanes(_mm256_loadu_ps(src + i));
    const __m256i hi = round_to_bf16_lanes(_mm256_loadu_ps(src + i + 8));
    // packus works within 128-bit lanes; the permute restores element order. Lanes are < 2^16.
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xd8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), packed);
  }
  for (; i < n; ++i) dst[i] = fp32_to_bf16(src[i]);
}

}  // namespace ptodist::kernels
