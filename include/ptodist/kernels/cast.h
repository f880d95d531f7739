// Type conversion between tiles of any two element types, and of single values.
#pragma once

#include <cstdint>

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

// dst = cast(src), same shape; dst may not overlap src unless both have the same element size and
// alias exactly. The cast rule, one rounding per conversion:
// - float -> float: round to nearest even (fp16 overflow gives inf; NaN stays NaN).
// - float -> integer: truncate toward zero, then saturate to the type's range; NaN gives 0.
// - integer -> integer: saturate to the target's range (not wrap; narrowing like the device's
//   saturating conversions, unlike numpy's astype).
// - integer -> float: round to nearest even, exactly once (no double rounding through fp32).
// - anything -> Bool: value != 0 (NaN is true); Bool -> anything: 0 or 1.
void cast(const TileView& dst, const TileView& src);

// PyPTO's rounding modes of pl.cast, in its code order (PTO's TCVT round modes): None (the
// instruction's own rounding: to nearest even for a float result, toward zero for an integer one, as
// pto-isa's TCVT does without a mode), Rint (to nearest, ties to even), Round (to
// nearest, ties away from zero), Floor, Ceil, Trunc (toward zero), Odd (toward zero, then the last bit
// set when inexact: a float result only).
enum class RoundMode { None, Rint, Round, Floor, Ceil, Trunc, Odd };

// dst = cast(src) rounded with `mode` where the conversion is inexact (float -> narrower float,
// float -> integer, integer -> float); otherwise the cast rule above (saturation, NaN, Bool).
void cast(const TileView& dst, const TileView& src, RoundMode mode);

// Writes `value` converted with the cast rule (from a double; integers beyond 2^53 lose their low bits)
// into one element of type t at dst.
void store_scalar(ElemType t, void* dst, double value);
// Reads one element of type t as a double (int64 beyond 2^53 rounds).
double load_scalar(ElemType t, const void* src);

}  // namespace ptodist::kernels
