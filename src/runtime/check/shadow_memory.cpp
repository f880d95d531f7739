// Check mode's shadow GM: the per-rank table of window segments and local GM (the interval maps themselves
// are templates in shadow_memory.h).
#include "shadow_memory.h"

namespace ptodist::runtime::check {

ShadowSegment& ShadowMemory::at(int rank, int segment) {
  if (segment == kLocalGm) {
    if (static_cast<size_t>(rank) >= local_.size()) local_.resize(static_cast<size_t>(rank) + 1);
    return local_[static_cast<size_t>(rank)];
  }
  if (static_cast<size_t>(rank) >= ranks_.size()) ranks_.resize(static_cast<size_t>(rank) + 1);
  auto& segs = ranks_[static_cast<size_t>(rank)];
  if (static_cast<size_t>(segment) >= segs.size()) segs.resize(static_cast<size_t>(segment) + 1);
  return segs[static_cast<size_t>(segment)];
}

}  // namespace ptodist::runtime::check
