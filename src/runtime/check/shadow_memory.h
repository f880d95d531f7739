// Shadow state of GM in check mode: per (rank, segment), interval maps from byte ranges to the last
// write of those bytes and to the reads since then, so a tensor accessed by one op costs one interval
// however large. Segments >= 0 are window buffers (offsets within the segment); segment kLocalGm is
// the rank's local GM (host tensors, kernel parameters), addressed by the bytes' host address.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "vector_clock.h"

namespace ptodist::runtime::check {

// The segment number of a rank's local (non-window) GM in shadow memory and in WindowAddr.
constexpr int kLocalGm = -1;

// One write: when (epoch), what it was (an index into the tracker's table of access records) and
// whether it was an atomic add (`atomic`: 0 for a plain write, else the kind of add: adds of one kind
// commute, adds of two kinds do not).
struct WriteMark {
  Epoch epoch;
  int record = -1;
  int atomic = 0;
  bool same(const WriteMark& o) const {
    return epoch.comp == o.epoch.comp && epoch.time == o.epoch.time && record == o.record &&
           atomic == o.atomic;
  }
};

// The last write of some bytes: when (epoch), whether it was an atomic add (its kind, 0: plain), and
// what it was. After atomic adds, `adds` keeps the earlier adds since the last plain write (the latest
// per component), since a reader must be ordered after every one of them.
struct ShadowWrite {
  Epoch epoch;
  int atomic = 0;
  int record = -1;
  std::vector<WriteMark> adds;

  bool same(const ShadowWrite& o) const {
    if (epoch.comp != o.epoch.comp || epoch.time != o.epoch.time || atomic != o.atomic ||
        record != o.record || adds.size() != o.adds.size())
      return false;
    for (size_t i = 0; i < adds.size(); ++i)
      if (!adds[i].same(o.adds[i])) return false;
    return true;
  }
  // An atomic add over these bytes: the current last write joins `adds` when it is an add too.
  void add_atomic(const WriteMark& m) {
    if (record >= 0 && atomic) {
      WriteMark last{epoch, record, atomic};
      auto it = std::find_if(adds.begin(), adds.end(),
                             [&](const WriteMark& a) { return a.epoch.comp == last.epoch.comp; });
      if (it != adds.end())
        *it = last;
      else
        adds.push_back(last);
    } else {
      adds.clear();
    }
    epoch = m.epoch;
    atomic = m.atomic;
    record = m.record;
  }
  // The first of the writes (last, then earlier adds) that `ok` (a predicate on a WriteMark) rejects.
  template <class Ok>
  std::optional<WriteMark> first_unordered(Ok ok) const {
    if (record >= 0 && !ok(WriteMark{epoch, record, atomic})) return WriteMark{epoch, record, atomic};
    for (const WriteMark& a : adds)
      if (!ok(a)) return a;
    return std::nullopt;
  }
};

// The reads of some bytes since their last write: the latest per reading component.
struct ReadMark {
  Epoch epoch;
  int record = -1;
};
struct ShadowReads {
  std::vector<ReadMark> marks;
  void add(const ReadMark& m) {
    for (ReadMark& x : marks) {
      if (x.epoch.comp == m.epoch.comp) {
        x = m;
        return;
      }
    }
    marks.push_back(m);
  }
  bool has(const ReadMark& m) const {
    for (const ReadMark& x : marks)
      if (x.epoch.comp == m.epoch.comp && x.epoch.time == m.epoch.time && x.record == m.record) return true;
    return false;
  }
  bool same(const ShadowReads& o) const {
    if (marks.size() != o.marks.size()) return false;
    for (size_t i = 0; i < marks.size(); ++i) {
      const ReadMark &a = marks[i], &b = o.marks[i];
      if (a.epoch.comp != b.epoch.comp || a.epoch.time != b.epoch.time || a.record != b.record) return false;
    }
    return true;
  }
};

// An earlier access that is not ordered with a new one: its bytes within the accessed range.
template <class T>
struct IntervalHit {
  long long begin = 0;
  long long end = 0;
  T value;
};
using ShadowHit = IntervalHit<ShadowWrite>;

// Non-overlapping byte intervals, each with a value; equal neighbours merge.
template <class T>
class IntervalMap {
 public:
  // The first interval overlapping [begin, end) whose value `ordered` rejects, widened over adjacent
  // intervals of the same value inside the range.
  template <class Ordered>
  std::optional<IntervalHit<T>> find_unordered(long long begin, long long end, Ordered ordered) const {
    auto it = first_overlap(begin);
    for (; it != map_.end() && it->first < end; ++it) {
      if (ordered(it->second.value)) continue;
      IntervalHit<T> hit{std::max(begin, it->first), std::min(end, it->second.end), it->second.value};
      for (auto next = std::next(it); next != map_.end() && next->first == hit.end && next->first < end &&
                                      next->second.value.same(hit.value);
           ++next)
        hit.end = std::min(end, next->second.end);
      return hit;
    }
    return std::nullopt;
  }
  // Bytes [begin, end) now hold `v`.
  void record(long long begin, long long end, const T& v) {
    if (end <= begin) return;
    erase(begin, end);
    merge_around(map_.emplace(begin, Entry{end, v}).first);
  }
  // True when one interval covers all of [begin, end) and its value satisfies `pred` (a cheap test
  // that an update would change nothing).
  template <class Pred>
  bool one_covers(long long begin, long long end, Pred pred) const {
    auto it = first_overlap(begin);
    return it != map_.end() && it->first <= begin && it->second.end >= end && pred(it->second.value);
  }
  // Applies `f` to the value of every byte of [begin, end) (bytes with none start from T{}).
  template <class F>
  void update(long long begin, long long end, F f) {
    if (end <= begin) return;
    split_at(begin);
    split_at(end);
    long long at = begin;
    auto it = map_.lower_bound(begin);
    while (at < end) {
      if (it == map_.end() || it->first > at) {  // a gap up to the next interval
        long long gap_end = it == map_.end() ? end : std::min(end, it->first);
        T v{};
        f(v);
        it = std::next(map_.emplace(at, Entry{gap_end, std::move(v)}).first);
        at = gap_end;
        continue;
      }
      f(it->second.value);
      at = it->second.end;
      ++it;
    }
    // Merge across the touched range and its borders.
    auto m = map_.lower_bound(begin);
    if (m != map_.begin()) m = std::prev(m);
    while (m != map_.end() && m->first <= end) m = merge_right(m);
  }
  void erase(long long begin, long long end) {
    if (end <= begin || map_.empty()) return;
    split_at(begin);
    split_at(end);
    map_.erase(map_.lower_bound(begin), map_.lower_bound(end));
  }
  size_t intervals() const { return map_.size(); }
  // The value covering byte `at`, if any.
  std::optional<T> value_at(long long at) const {
    auto it = first_overlap(at);
    if (it != map_.end() && it->first <= at && at < it->second.end) return it->second.value;
    return std::nullopt;
  }

 private:
  struct Entry {
    long long end = 0;
    T value;
  };
  using Map = std::map<long long, Entry>;

  typename Map::const_iterator first_overlap(long long begin) const {
    auto it = map_.upper_bound(begin);
    if (it != map_.begin()) {
      auto prev = std::prev(it);
      if (prev->second.end > begin) return prev;
    }
    return it;
  }
  // Splits the interval containing `at` (if any) so that an interval starts at `at`.
  void split_at(long long at) {
    auto it = map_.upper_bound(at);
    if (it == map_.begin()) return;
    --it;
    if (it->first < at && it->second.end > at) {
      Entry tail = it->second;
      it->second.end = at;
      map_.emplace(at, std::move(tail));
    }
  }
  // Merges `it` with its right neighbour when they touch and hold the same value; returns the
  // iterator to continue from.
  typename Map::iterator merge_right(typename Map::iterator it) {
    auto next = std::next(it);
    if (next != map_.end() && next->first == it->second.end && next->second.value.same(it->second.value)) {
      it->second.end = next->second.end;
      map_.erase(next);
      return it;
    }
    return next;
  }
  void merge_around(typename Map::iterator it) {
    merge_right(it);
    if (it != map_.begin()) merge_right(std::prev(it));
  }

  Map map_;  // by first byte
};

// The shadow of one segment of one rank.
class ShadowSegment : public IntervalMap<ShadowWrite> {
 public:
  std::optional<ShadowWrite> write_at(long long at) const { return value_at(at); }
  IntervalMap<ShadowReads> reads;
};

// Every rank's window segments and local GM.
class ShadowMemory {
 public:
  ShadowSegment& at(int rank, int segment);
  void clear() {
    ranks_.clear();
    local_.clear();
  }

 private:
  std::vector<std::vector<ShadowSegment>> ranks_;
  std::vector<ShadowSegment> local_;  // by rank: segment kLocalGm
};

}  // namespace ptodist::runtime::check
