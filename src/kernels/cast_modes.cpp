// pl.cast with an explicit rounding mode (cast.h): each inexact conversion finds the two neighbours of
// the exact value in the target type and picks one by the mode.
#include <cmath>
#include <cstring>

#include "element_access.h"
#include "ptodist/kernels/cast.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {

namespace {

// A float element as its bit pattern (sign-magnitude: adding 1 to a finite non-NaN pattern steps its
// magnitude up by one unit in the last place, whatever its sign).
uint32_t nearest_bits(ElemType t, double exact) {
  // Exact for a float source; an int32 past 2^24 rounds here, but only to one of the two neighbours
  // in t, so the neighbours the caller derives from it still bracket the exact value.
  const float f = static_cast<float>(exact);
  if (t == ElemType::F32) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  return t == ElemType::F16 ? fp32_to_fp16(f) : fp32_to_bf16(f);
}

double value_of(ElemType t, uint32_t bits) {
  if (t == ElemType::F32) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  return t == ElemType::F16 ? fp16_to_fp32(static_cast<uint16_t>(bits))
                            : bf16_to_fp32(static_cast<uint16_t>(bits));
}

// The magnitude one step past the largest finite value (what an overflow to infinity stands for when
// distances are compared): 2^16 for fp16, 2^128 for bf16 and fp32.
double past_max(ElemType t) {
  return t == ElemType::F16 ? 65536.0 : std::ldexp(1.0, 128);
}

// `exact` (finite, not NaN) rounded to float type t with `mode`.
uint32_t round_to_float(ElemType t, double exact, RoundMode mode) {
  const uint32_t nearest = nearest_bits(t, exact);
  const double back = value_of(t, nearest);
  if (back == exact || mode == RoundMode::Rint || mode == RoundMode::None) return nearest;
  // lo: the neighbour toward zero, hi: the one away from zero (possibly the infinity).
  const uint32_t lo = std::fabs(back) > std::fabs(exact) ? nearest - 1 : nearest;
  const uint32_t hi = lo + 1;
  const bool positive = exact > 0;
  switch (mode) {
    case RoundMode::Trunc:
      return lo;
    case RoundMode::Floor:
      return positive ? lo : hi;
    case RoundMode::Ceil:
      return positive ? hi : lo;
    case RoundMode::Odd:
      return (lo & 1) ? lo : hi;
    default: {  // Round: to nearest, ties away from zero
      const double hi_mag = std::isinf(value_of(t, hi)) ? past_max(t) : std::fabs(value_of(t, hi));
      const double d_lo = std::fabs(exact) - std::fabs(value_of(t, lo));
      return hi_mag - std::fabs(exact) <= d_lo ? hi : lo;
    }
  }
}

double round_to_integer(double v, RoundMode mode) {
  switch (mode) {
    case RoundMode::Round:
      return std::round(v);
    case RoundMode::Floor:
      return std::floor(v);
    case RoundMode::Ceil:
      return std::ceil(v);
    case RoundMode::Trunc:
    case RoundMode::None:  // pto-isa's TCVT to an integer: no mode means toward zero (vconv_*z)
      return std::trunc(v);
    default:  // Rint (Odd has no integer form; the contract rejects it)
      return std::nearbyint(v);
  }
}

// One element: `exact` is the source value (exact in a double for every source but int64).
void store_rounded(ElemType t, void* dst, double exact, RoundMode mode) {
  if (t == ElemType::Bool || std::isnan(exact) || std::isinf(exact)) {
    detail::store_from_float(t, dst, static_cast<float>(exact));
  } else if (elem_is_float(t)) {
    const uint32_t bits = round_to_float(t, exact, mode);
    std::memcpy(dst, &bits, elem_bytes(t));  // little-endian: the low bytes hold a 16-bit pattern
  } else {
    detail::visit_int(t, [&](auto tag) {
      const auto x = detail::int_from_float<decltype(tag)>(round_to_integer(exact, mode));
      std::memcpy(dst, &x, sizeof(x));
    });
  }
}

// Round (ties away) from fp32 to fp16/bf16 differs from the cast rule's ties-to-even only at exact
// ties, which the low bits of the source tell: the rule runs in bulk and ties are redone one by one.
bool may_be_tie(ElemType t, float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if (t == ElemType::BF16) return (b & 0xFFFF) == 0x8000;
  return (b & 0x1FFF) == 0x1000 || std::fabs(f) < 6.103515625e-05f;  // below 2^-14: fp16 subnormals
}

void cast_fp32_round(const TileView& dst, const TileView& src) {
  cast(dst, src);
  const int eb = elem_bytes(dst.type);
  for (int r = 0; r < src.rows; ++r) {
    const auto* in = reinterpret_cast<const float*>(src.row_ptr(r));
    for (long c = 0; c < src.cols; ++c) {
      float f;
      std::memcpy(&f, in + c, 4);
      if (std::isfinite(f) && may_be_tie(dst.type, f))
        store_rounded(dst.type, dst.row_ptr(r) + c * eb, f, RoundMode::Round);
    }
  }
}

}  // namespace

void cast(const TileView& dst, const TileView& src, RoundMode mode) {
  PTODIST_INTERNAL_ASSERT(dst.rows == src.rows && dst.cols == src.cols, "cast: shapes differ");
  const bool exact = dst.type == src.type || (!elem_is_float(src.type) && !elem_is_float(dst.type)) ||
                     src.type == ElemType::Bool || src.type == ElemType::I64;
  const bool float_dst = elem_is_float(dst.type);
  // None is the cast rule itself (nearest even to a float, toward zero to an integer).
  if (exact || mode == RoundMode::None || (float_dst && mode == RoundMode::Rint)) return cast(dst, src);
  if (mode == RoundMode::Round && src.type == ElemType::F32 && float_dst) return cast_fp32_round(dst, src);
  const int eb = elem_bytes(dst.type), sb = elem_bytes(src.type);
  for (int r = 0; r < src.rows; ++r)
    for (long c = 0; c < src.cols; ++c)
      store_rounded(dst.type, dst.row_ptr(r) + c * eb, load_scalar(src.type, src.row_ptr(r) + c * sb), mode);
}

}  // namespace ptodist::kernels
