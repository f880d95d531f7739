// The cast rule (cast.h) for single elements and whole tiles, with bulk fast paths for float pairs.
#include "ptodist/kernels/cast.h"

#include <algorithm>
#include <cmath>

#include "element_access.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace detail {

float int_to_float_exact(int64_t v, ElemType t) {
  if (t == ElemType::F32) return static_cast<float>(v);  // cvtsi2ss rounds once, to nearest even
  const int sig_bits = t == ElemType::F16 ? 11 : 8;
  const bool neg = v < 0;
  uint64_t mag = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int shift = 0;
  if (mag >> sig_bits) {
    shift = 64 - __builtin_clzll(mag) - sig_bits;
    const uint64_t rem = mag & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    mag >>= shift;
    if (rem > half || (rem == half && (mag & 1))) ++mag;  // may carry to 2^sig_bits: still exact below
  }
  // mag * 2^shift has at most sig_bits significant bits and is < 2^65, so it is exact in fp32; fp16
  // then overflows to inf on its own in fp32_to_fp16.
  const float f = std::ldexp(static_cast<float>(mag), shift);
  return neg ? -f : f;
}

void store_from_float(ElemType t, void* dst, float v) {
  switch (t) {
    case ElemType::F32:
      std::memcpy(dst, &v, 4);
      return;
    case ElemType::F16: {
      const uint16_t h = fp32_to_fp16(v);
      std::memcpy(dst, &h, 2);
      return;
    }
    case ElemType::BF16: {
      const uint16_t b = fp32_to_bf16(v);
      std::memcpy(dst, &b, 2);
      return;
    }
    case ElemType::Bool:
      *static_cast<uint8_t*>(dst) = v != 0.0f;
      return;  // NaN != 0 is true
    default:
      visit_int(t, [&](auto tag) {
        const auto x = int_from_float<decltype(tag)>(v);
        std::memcpy(dst, &x, sizeof(x));
      });
  }
}

void store_from_int(ElemType t, void* dst, int64_t v) {
  if (elem_is_float(t)) {
    store_from_float(t, dst, int_to_float_exact(v, t));
  } else if (t == ElemType::Bool) {
    *static_cast<uint8_t*>(dst) = v != 0;
  } else {
    visit_int(t, [&](auto tag) {
      const auto x = int_from_int<decltype(tag)>(v);
      std::memcpy(dst, &x, sizeof(x));
    });
  }
}

int64_t load_int(ElemType t, const void* src) {
  return visit_int(t, [&](auto tag) {
    decltype(tag) x;
    std::memcpy(&x, src, sizeof(x));
    return static_cast<int64_t>(x);
  });
}

}  // namespace detail

namespace {

using detail::kBlock;

// Float source: widen a block to fp32 (exact), then encode each element or round in bulk.
void cast_row_from_float(const TileView& dst, const TileView& src, int r) {
  const int eb = elem_bytes(dst.type), sb = elem_bytes(src.type);
  float buf[kBlock];
  for (long c0 = 0; c0 < src.cols; c0 += kBlock) {
    const long n = std::min<long>(kBlock, src.cols - c0);
    detail::load_f32(src.type, src.row_ptr(r) + c0 * sb, buf, n);
    char* out = dst.row_ptr(r) + c0 * eb;
    if (elem_is_float(dst.type)) {
      detail::store_f32(dst.type, buf, out, n);
    } else {
      for (long i = 0; i < n; ++i) detail::store_from_float(dst.type, out + i * eb, buf[i]);
    }
  }
}

void cast_row_from_int(const TileView& dst, const TileView& src, int r) {
  const int eb = elem_bytes(dst.type), sb = elem_bytes(src.type);
  const char* in = src.row_ptr(r);
  char* out = dst.row_ptr(r);
  const bool from_bool = src.type == ElemType::Bool;
  for (long i = 0; i < src.cols; ++i) {
    int64_t v = detail::load_int(src.type, in + i * sb);
    if (from_bool) v = v != 0;
    detail::store_from_int(dst.type, out + i * eb, v);
  }
}

}  // namespace

void cast(const TileView& dst, const TileView& src) {
  PTODIST_INTERNAL_ASSERT(dst.rows == src.rows && dst.cols == src.cols, "cast: shapes differ");
  for (int r = 0; r < src.rows; ++r) {
    if (dst.type == src.type) {
      std::memmove(dst.row_ptr(r), src.row_ptr(r), static_cast<size_t>(src.row_bytes()));
    } else if (elem_is_float(src.type)) {
      cast_row_from_float(dst, src, r);
    } else {
      cast_row_from_int(dst, src, r);
    }
  }
}

void store_scalar(ElemType t, void* dst, double value) {
  if (elem_is_float(t) || std::isnan(value)) {
    detail::store_from_float(t, dst, static_cast<float>(value));
  } else if (t == ElemType::Bool) {
    *static_cast<uint8_t*>(dst) = value != 0.0;
  } else {
    // Truncate and saturate in the widest type first, then narrow with saturation.
    detail::store_from_int(t, dst, detail::int_from_float<int64_t>(value));
  }
}

double load_scalar(ElemType t, const void* src) {
  switch (t) {
    case ElemType::F32: {
      float f;
      std::memcpy(&f, src, 4);
      return f;
    }
    case ElemType::F16:
    case ElemType::BF16: {
      uint16_t h;
      std::memcpy(&h, src, 2);
      return t == ElemType::F16 ? fp16_to_fp32(h) : bf16_to_fp32(h);
    }
    default:
      return static_cast<double>(detail::load_int(t, src));
  }
}

}  // namespace ptodist::kernels
