// fp16 and bf16 <-> fp32 conversion: scalar reference functions and bulk row converters (F16C/AVX2).
#pragma once

#include <cstdint>

namespace ptodist::kernels {

// Scalar conversions, bit-exact with the bulk ones below (which use F16C / AVX2 when they can).
// fp32 -> fp16 and fp32 -> bf16 round to nearest, ties to even; overflow gives +-inf. A NaN stays a NaN
// of the same sign: its payload is truncated to the top bits and the quiet bit is set (what F16C's
// vcvtps2ph does), so a NaN never turns into an infinity. fp16/bf16 -> fp32 is exact; an fp16 NaN
// comes back quiet with its payload, a bf16 NaN comes back bit for bit.
uint16_t fp32_to_fp16(float f);
float fp16_to_fp32(uint16_t h);
uint16_t fp32_to_bf16(float f);
float bf16_to_fp32(uint16_t b);

// Bulk converters over n contiguous elements (any n, any alignment). src and dst must not overlap.
void fp16_to_fp32_n(const uint16_t* src, float* dst, long n);
void fp32_to_fp16_n(const float* src, uint16_t* dst, long n);
void bf16_to_fp32_n(const uint16_t* src, float* dst, long n);
void fp32_to_bf16_n(const float* src, uint16_t* dst, long n);

}  // namespace ptodist::kernels
