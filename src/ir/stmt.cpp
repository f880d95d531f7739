// Statement helpers (stmt.h).
#include "ptodist/ir/stmt.h"

namespace ptodist::ir {

std::optional<long long> constant_trip_count(const For& loop) {
  auto start = loop.start ? as_const_int(loop.start) : std::optional<long long>(0);
  auto stop = as_const_int(loop.stop);
  auto step = loop.step ? as_const_int(loop.step) : std::optional<long long>(1);
  if (!start || !stop || !step || *step == 0) return std::nullopt;
  long long n = *step > 0 ? (*stop - *start + *step - 1) / *step : (*start - *stop - *step - 1) / -*step;
  return n < 0 ? 0 : n;
}

}  // namespace ptodist::ir
