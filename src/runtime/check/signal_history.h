// What check mode remembers of each signal cell: the notifies since its last Set (value, round,
// release clock, who), so a satisfied wait can acquire exactly what the value it saw includes and
// tell a value left over from an earlier round from this round's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ptodist/support/source.h"
#include "vector_clock.h"

namespace ptodist::runtime::check {

struct Contribution {
  int32_t value = 0;
  bool add = true;  // AtomicAdd; false: Set
  int round = 0;
  VectorClock release{};  // the notifier's release clock (cleared once its round is over)
  int rank = 0;           // the notifier, for reports (kept across rounds)
  std::string who{};
  SourceSpan span{};
  std::string op{};
};

// The cells of every rank, by (rank, segment, byte offset).
class SignalHistory {
 public:
  using Cell = std::vector<Contribution>;  // since the last Set (a Set, if any, comes first)

  void notify(int rank, int segment, long long offset, Contribution c);
  // The cell's history, or null when nothing notified it (since the last reset).
  const Cell* find(int rank, int segment, long long offset) const;
  // A plain store over [begin, end) of a segment: the cells there start afresh.
  void reset_range(int rank, int segment, long long begin, long long end);
  // A new round: without zeroed windows, earlier contributions stay (their clocks no longer apply).
  void begin_round(bool windows_zeroed);
  bool empty() const { return cells_.empty(); }

 private:
  using Key = std::tuple<int, int, long long>;
  std::map<Key, Cell> cells_;
};

// What a satisfied wait learns from a cell's history.
struct WaitVerdict {
  long long this_round = 0;             // the value this round's notifies account for
  const Contribution* stale = nullptr;  // the latest earlier-round contribution, when it was needed
};

// A value satisfied the wait (== or >= `expected`); would this round's contributions alone have?
WaitVerdict judge_wait(const SignalHistory::Cell& cell, int round, long long expected, bool ge);

}  // namespace ptodist::runtime::check
