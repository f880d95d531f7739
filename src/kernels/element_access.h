// Internal helpers shared by the kernels: fp32 staging of float rows, integer type dispatch and the
// scalar cast rule (cast.h documents it).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ptodist/kernels/convert.h"
#include "ptodist/kernels/tile.h"

namespace ptodist::kernels::detail {

// Rows are processed in blocks of this many elements through stack buffers (no heap, fits L1).
constexpr long kBlock = 256;

// Widens n elements of a float type (F32, F16, BF16) to fp32, and rounds them back.
inline void load_f32(ElemType t, const void* src, float* dst, long n) {
  if (t == ElemType::F32) {
    std::memcpy(dst, src, static_cast<size_t>(n) * 4);
  } else if (t == ElemType::F16) {
    fp16_to_fp32_n(static_cast<const uint16_t*>(src), dst, n);
  } else {
    bf16_to_fp32_n(static_cast<const uint16_t*>(src), dst, n);
  }
}

inline void store_f32(ElemType t, const float* src, void* dst, long n) {
  if (t == ElemType::F32) {
    std::memmove(dst, src, static_cast<size_t>(n) * 4);
  } else if (t == ElemType::F16) {
    fp32_to_fp16_n(src, static_cast<uint16_t*>(dst), n);
  } else {
    fp32_to_bf16_n(src, static_cast<uint16_t*>(dst), n);
  }
}

// Calls f(T{}) with the C++ type of an integer element type; Bool is handled as uint8_t (callers
// normalise to 0/1 where arithmetic could leave other values).
template <typename F>
decltype(auto) visit_int(ElemType t, F&& f) {
  switch (t) {
    case ElemType::I32:
      return f(int32_t{});
    case ElemType::I16:
      return f(int16_t{});
    case ElemType::I8:
      return f(int8_t{});
    case ElemType::I64:
      return f(int64_t{});
    case ElemType::U16:
      return f(uint16_t{});
    case ElemType::U32:
      return f(uint32_t{});
    default:
      return f(uint8_t{});  // U8 and Bool
  }
}

// float -> integer: truncate toward zero, saturate, NaN -> 0.
template <typename T>
T int_from_float(double v) {
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  // The bounds are compared as doubles: min is a power of two (exact); max + 1 is one too.
  if (t < static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (t >= static_cast<double>(std::numeric_limits<T>::max()) + 1.0) return std::numeric_limits<T>::max();
  return static_cast<T>(t);
}

// integer -> integer with saturation.
template <typename T>
T int_from_int(int64_t v) {
  if (v < static_cast<int64_t>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (v > static_cast<int64_t>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

// integer -> float of type t (F32, F16, BF16), rounded once to nearest even, as an fp32 value that
// converts to t exactly. Rounds the magnitude to t's significand width in integer arithmetic, so no
// intermediate rounding through fp32 can create a false tie.
float int_to_float_exact(int64_t v, ElemType t);

// Encodes an fp32 value into one element of any type with the cast rule.
void store_from_float(ElemType t, void* dst, float v);
// Encodes an int64 value into one element of any type with the cast rule.
void store_from_int(ElemType t, void* dst, int64_t v);
// Reads one integer/Bool element as int64.
int64_t load_int(ElemType t, const void* src);

}  // namespace ptodist::kernels::detail
