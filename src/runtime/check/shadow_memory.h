// Shadow state of window memory in check mode: per (rank, segment), an interval map from byte ranges
// to the last write of those bytes, so a tensor written by one op costs one interval however large.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "vector_clock.h"

namespace ptodist::runtime::check {

// The last write of some bytes: when (epoch), whether it was an atomic add, and what it was (an
// index into the tracker's table of access records, for reports).
struct ShadowWrite {
  Epoch epoch;
  bool atomic = false;
  int record = -1;
  bool same(const ShadowWrite& o) const {
    return epoch.comp == o.epoch.comp && epoch.time == o.epoch.time && atomic == o.atomic &&
           record == o.record;
  }
};

// An earlier write that is not ordered with an access: its bytes within the accessed range.
struct ShadowHit {
  long long begin = 0;
  long long end = 0;
  ShadowWrite write;
};

class ShadowSegment {
 public:
  // The first earlier write overlapping [begin, end) that `ordered` rejects, widened over adjacent
  // intervals of the same write inside the range.
  template <class Ordered>
  std::optional<ShadowHit> find_unordered(long long begin, long long end, Ordered ordered) const {
    auto it = first_overlap(begin);
    for (; it != map_.end() && it->first < end; ++it) {
      if (ordered(it->second.write)) continue;
      ShadowHit hit{std::max(begin, it->first), std::min(end, it->second.end), it->second.write};
      for (auto next = std::next(it); next != map_.end() && next->first == hit.end && next->first < end &&
                                      next->second.write.same(hit.write);
           ++next)
        hit.end = std::min(end, next->second.end);
      return hit;
    }
    return std::nullopt;
  }
  // Bytes [begin, end) were last written by `w`.
  void record(long long begin, long long end, const ShadowWrite& w);
  size_t intervals() const { return map_.size(); }
  // For tests: the write covering byte `at`, if any.
  std::optional<ShadowWrite> write_at(long long at) const;

 private:
  struct Entry {
    long long end = 0;
    ShadowWrite write;
  };
  using Map = std::map<long long, Entry>;
  Map::const_iterator first_overlap(long long begin) const;
  // Splits the interval containing `at` (if any) so that an interval starts at `at`.
  void split_at(long long at);

  Map map_;  // by first byte; intervals never overlap
};

// Every rank's window segments.
class ShadowMemory {
 public:
  ShadowSegment& at(int rank, int segment);
  void clear() { ranks_.clear(); }

 private:
  std::vector<std::vector<ShadowSegment>> ranks_;
};

}  // namespace ptodist::runtime::check
