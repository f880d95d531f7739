// pl.cast's rounding mode argument as PyPTO's code (cast_mode.h).
#include "ptodist/ir/cast_mode.h"

#include <string>

namespace ptodist::ir {

std::optional<int> cast_mode_code(const Expr& mode) {
  if (!mode || mode->isa<NoneImm>()) return kCastModeRound;
  if (const auto* s = mode->as<StrImm>()) {
    for (int i = 0; i < static_cast<int>(std::size(kCastModeNames)); ++i)
      if (s->value == kCastModeNames[i]) return i;
    return std::nullopt;
  }
  if (const auto* n = mode->as<IntImm>();
      n && n->value >= 0 && n->value < static_cast<int>(std::size(kCastModeNames)))
    return static_cast<int>(n->value);
  return std::nullopt;
}

}  // namespace ptodist::ir
