// The cost of one op on the core that runs it, from its event (operands, result, bytes, peer) and the
// profile: what the core spends, and what it asks of the chip's shared engines (HBM, a link).
#pragma once

#include "ptodist/runtime/events.h"
#include "ptodist/timing/params.h"

namespace ptodist::timing {

// A core's pipes (each runs its ops in order; different pipes run at once when the ops' data allow).
// Link: a synchronous remote access, which the model runs with the core's pipes drained.
enum class Pipe : uint8_t { MTE2, MTE1, Cube, Vector, MTE3, FixPipe, Scalar, Link };
inline constexpr int kPipes = 8;
const char* pipe_name(Pipe p);

struct OpCost {
  double core_us = 0;  // the op's own pipe time on the core
  Pipe pipe = Pipe::Scalar;
  double hbm_bytes = 0;   // bytes through the chip's HBM (shared by its cores)
  double link_bytes = 0;  // a synchronous remote access: bytes over the link from `link_from` to `link_to`
  int link_from = -1, link_to = -1;
  bool compute = false;  // counts as compute when the hidden fraction of transfers is measured
  bool remote = false;   // a synchronous remote access (put/get/remote load/store)
};

// `e` is the op's OpEnd event; `rank` the rank it runs on.
OpCost op_cost(const runtime::events::Event& e, int rank, const TimingParams& p);

}  // namespace ptodist::timing
