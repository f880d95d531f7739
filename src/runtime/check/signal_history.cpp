// Signal cell histories of check mode: recorded at each notify, cut at each Set or plain store, and
// judged at each satisfied wait (hazard 5: a value left from an earlier round).
#include "signal_history.h"

namespace ptodist::runtime::check {

void SignalHistory::notify(int rank, int segment, long long offset, Contribution c) {
  Cell& cell = cells_[Key{rank, segment, offset}];
  if (!c.add) cell.clear();
  cell.push_back(std::move(c));
}

const SignalHistory::Cell* SignalHistory::find(int rank, int segment, long long offset) const {
  auto it = cells_.find(Key{rank, segment, offset});
  return it == cells_.end() ? nullptr : &it->second;
}

void SignalHistory::reset_range(int rank, int segment, long long begin, long long end) {
  auto it = cells_.lower_bound(Key{rank, segment, begin});
  while (it != cells_.end() && it->first < Key{rank, segment, end}) it = cells_.erase(it);
}

void SignalHistory::begin_round(bool windows_zeroed) {
  if (windows_zeroed) {
    cells_.clear();
    return;
  }
  for (auto& [key, cell] : cells_)
    for (Contribution& c : cell) c.release.clear();
}

WaitVerdict judge_wait(const SignalHistory::Cell& cell, int round, long long expected, bool ge) {
  WaitVerdict v;
  for (const Contribution& c : cell) {
    if (c.round == round)
      v.this_round = c.add ? v.this_round + c.value : c.value;
    else
      v.stale = &c;
  }
  bool alone = ge ? v.this_round >= expected : v.this_round == expected;
  if (alone || !v.stale) v.stale = nullptr;
  return v;
}

}  // namespace ptodist::runtime::check
