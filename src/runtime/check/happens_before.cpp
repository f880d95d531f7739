// Placeholder bodies of the happens-before tracker until its implementation lands (see
// happens_before.h).
#include "happens_before.h"

namespace ptodist::runtime::check {

class HappensBeforeImpl {};

HappensBefore::HappensBefore(World&) {}
HappensBefore::~HappensBefore() = default;

}  // namespace ptodist::runtime::check
