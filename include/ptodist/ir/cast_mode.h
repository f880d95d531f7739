// pl.cast's `mode`: PyPTO's rounding mode names and their codes (python/pypto/ir/utils.py
// CAST_MODE_NAMES), shared by the contract, the executor and the PTO emitter.
#pragma once

#include <optional>

#include "ptodist/ir/expr.h"

namespace ptodist::ir {

// "none" 0, "rint" 1, "round" 2 (the default), "floor" 3, "ceil" 4, "trunc" 5, "odd" 6.
inline constexpr const char* kCastModeNames[] = {"none", "rint", "round", "floor", "ceil", "trunc", "odd"};
inline constexpr int kCastModeRound = 2;
inline constexpr int kCastModeOdd = 6;

// The code of a cast's `mode` argument: a name or an int code; the default when omitted (null or
// None); nullopt when it is neither a known name nor a code in range.
std::optional<int> cast_mode_code(const Expr& mode);

}  // namespace ptodist::ir
