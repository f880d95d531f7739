// Statement helpers (stmt.h).
#include "ptodist/ir/stmt.h"

#include <climits>

namespace ptodist::ir {

std::optional<long long> constant_trip_count(const For& loop) {
  auto start = loop.start ? as_const_int(loop.start) : std::optional<long long>(0);
  auto stop = as_const_int(loop.stop);
  auto step = loop.step ? as_const_int(loop.step) : std::optional<long long>(1);
  if (!start || !stop || !step || *step == 0) return std::nullopt;
  // In 128 bits: stop - start overflows 64 for extreme constants (range(-2**63 + 1, 2**63 - 1)).
  const __int128 a = *start, b = *stop, d = *step;
  const __int128 n = d > 0 ? (b - a + d - 1) / d : (a - b - d - 1) / -d;
  if (n < 0) return 0;
  return n > LLONG_MAX ? LLONG_MAX : static_cast<long long>(n);  // saturated: more than any budget
}

}  // namespace ptodist::ir
