// Vector clocks of check mode: one component per actor and per DMA transfer of the round, kept dense
// (components are handed out in first-use order, so a round of a few hundred actors and transfers
// stays a few hundred counters) and epochs (component, time) that name one write.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptodist::runtime::check {

// A point in one component's history: write `time` of component `comp`.
struct Epoch {
  int comp = -1;
  uint32_t time = 0;
};

class VectorClock {
 public:
  uint32_t get(int comp) const {
    return comp >= 0 && static_cast<size_t>(comp) < c_.size() ? c_[static_cast<size_t>(comp)] : 0;
  }
  void set(int comp, uint32_t time) {
    if (static_cast<size_t>(comp) >= c_.size()) c_.resize(static_cast<size_t>(comp) + 1, 0);
    c_[static_cast<size_t>(comp)] = time;
  }
  // Raises one component to at least `time`.
  void raise(int comp, uint32_t time) {
    if (get(comp) < time) set(comp, time);
  }
  // Pointwise maximum: everything `other` knows, this clock now knows too.
  void join(const VectorClock& other) {
    if (other.c_.size() > c_.size()) c_.resize(other.c_.size(), 0);
    for (size_t i = 0; i < other.c_.size(); ++i) c_[i] = std::max(c_[i], other.c_[i]);
  }
  // True when the write at `e` happened before whatever holds this clock.
  bool covers(const Epoch& e) const { return get(e.comp) >= e.time; }
  void clear() { c_.clear(); }

 private:
  std::vector<uint32_t> c_;
};

}  // namespace ptodist::runtime::check
