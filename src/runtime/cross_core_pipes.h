// The cross-core pipes of one Group call: per pipe id and direction a FIFO of slot_num slots between
// the Group's AIC and AIV kernels (docs/pto.md, "Cross-core pipes"). A push takes a slot (blocking
// while every slot is in use), a pop waits for a push, and the consumer's tfree gives its slot back.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "ptodist/ir/dtype.h"
#include "ptodist/runtime/value.h"

namespace ptodist::runtime {

// The explicit cross-core events (pl.system.sync_set / sync_wait) of one core cluster: per receiving
// side (0 the cube, 1 the vector lanes) and event id, the sets not yet consumed by a wait, counted in
// vector lanes: a set toward the cube from one lane of a pl.split_aiv region counts 1, from an AIV kernel
// or mixed-kernel code outside a region (which ptodist runs once for both lanes) 2; the cube's set
// counts 2 (it releases both lanes). A wait takes what its executor stands for (2 on the cube, 1 per
// region lane, 2 otherwise).
struct CrossCoreEvents {
  static constexpr int kEvents = 16;
  std::mutex mu;
  long long raised[2][kEvents] = {};
  // Check mode names an event by (serial, side, id): unique per cluster of the run.
  const uint64_t serial = next_serial();
  uint64_t key(int side, long long id) const {
    return (serial * 2 + static_cast<uint64_t>(side)) * kEvents + id;
  }

 private:
  static uint64_t next_serial() {
    static std::atomic<uint64_t> n{0};
    return n++;
  }
};

struct CrossCorePipes {
  // The data of one pushed tile: a copy, so the producer may reuse its buffer at once.
  struct Slot {
    std::vector<std::byte> bytes;
    ir::DType dtype = ir::DType::FP32;
    Dims shape;
    Dims valid;  // empty: all of it
  };
  struct Fifo {
    int slot_num = 0;  // 0 until a side initialised the pipe in this direction
    bool producer_ready = false, consumer_ready = false;
    int in_use = 0;          // pushed and not yet freed by the consumer
    std::deque<Slot> ready;  // pushed, not yet popped
    int popped = 0;          // popped, not yet freed
  };
  std::mutex mu;
  // Keyed by (block, pipe id, cube-to-vector): a Group submitted on N blocks runs N core clusters, and
  // block b's AIC kernel talks to block b's AIV kernel only.
  std::map<std::tuple<int, long long, bool>, Fifo> fifos;
  // Block b's cluster events: its AIC and AIV kernels signal each other through these.
  CrossCoreEvents& events_of(int block) {
    std::lock_guard<std::mutex> lock(mu);
    return events_[block];
  }

 private:
  std::map<int, CrossCoreEvents> events_;
};

}  // namespace ptodist::runtime
