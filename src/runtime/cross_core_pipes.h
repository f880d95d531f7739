// The cross-core pipes of one Group call: per pipe id and direction a FIFO of slot_num slots between
// the Group's AIC and AIV kernels (docs/pto.md, "Cross-core pipes"). A push takes a slot (blocking
// while every slot is in use), a pop waits for a push, and the consumer's tfree gives its slot back.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "ptodist/ir/dtype.h"
#include "ptodist/runtime/value.h"

namespace ptodist::runtime {

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
  // Keyed by (pipe id, cube-to-vector).
  std::map<std::pair<long long, bool>, Fifo> fifos;
};

}  // namespace ptodist::runtime
