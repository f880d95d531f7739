// The cross-core pipes of one Group call: per pipe id and direction a FIFO of slot_num slots between
// the Group's AIC and AIV kernels (docs/pto.md, "Cross-core pipes"). A push takes a slot (blocking
// while every slot is in use), a pop waits for a push, and the consumer's tfree gives its slot back.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <tuple>
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
  // Keyed by (block, pipe id, cube-to-vector): a Group submitted on N blocks runs N core clusters, and
  // block b's AIC kernel talks to block b's AIV kernel only.
  std::map<std::tuple<int, long long, bool>, Fifo> fifos;
};

}  // namespace ptodist::runtime
