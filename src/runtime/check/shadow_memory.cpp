// The interval map behind check mode's shadow window memory: writes split and replace the intervals
// they cover and merge with equal neighbours, so row-by-row copies of one op collapse to one interval.
#include "shadow_memory.h"

namespace ptodist::runtime::check {

ShadowSegment::Map::const_iterator ShadowSegment::first_overlap(long long begin) const {
  auto it = map_.upper_bound(begin);
  if (it != map_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > begin) return prev;
  }
  return it;
}

void ShadowSegment::split_at(long long at) {
  auto it = map_.upper_bound(at);
  if (it == map_.begin()) return;
  --it;
  if (it->first < at && it->second.end > at) {
    Entry tail = it->second;
    it->second.end = at;
    map_.emplace(at, tail);
  }
}

void ShadowSegment::record(long long begin, long long end, const ShadowWrite& w) {
  if (end <= begin) return;
  split_at(begin);
  split_at(end);
  map_.erase(map_.lower_bound(begin), map_.lower_bound(end));
  auto it = map_.emplace(begin, Entry{end, w}).first;
  // Merge with the right neighbour, then the left one.
  auto next = std::next(it);
  if (next != map_.end() && next->first == end && next->second.write.same(w)) {
    it->second.end = next->second.end;
    map_.erase(next);
  }
  if (it != map_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end == begin && prev->second.write.same(w)) {
      prev->second.end = it->second.end;
      map_.erase(it);
    }
  }
}

std::optional<ShadowWrite> ShadowSegment::write_at(long long at) const {
  auto it = first_overlap(at);
  if (it != map_.end() && it->first <= at && at < it->second.end) return it->second.write;
  return std::nullopt;
}

ShadowSegment& ShadowMemory::at(int rank, int segment) {
  if (static_cast<size_t>(rank) >= ranks_.size()) ranks_.resize(static_cast<size_t>(rank) + 1);
  auto& segs = ranks_[static_cast<size_t>(rank)];
  if (static_cast<size_t>(segment) >= segs.size()) segs.resize(static_cast<size_t>(segment) + 1);
  return segs[static_cast<size_t>(segment)];
}

}  // namespace ptodist::runtime::check
