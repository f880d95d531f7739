// The cost of one op on the core that runs it, from its event (operands, result, bytes, peer) and the
// profile: what the core spends, and what it asks of the chip's shared engines (HBM, a link).
#pragma once

#include <bit>
#include <cstdint>

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

  // Equal field by field, doubles bit for bit (so sharing one cost among equal ops changes no figure).
  bool operator==(const OpCost& o) const {
    return bits(core_us) == bits(o.core_us) && pipe == o.pipe && bits(hbm_bytes) == bits(o.hbm_bytes) &&
           bits(link_bytes) == bits(o.link_bytes) && link_from == o.link_from && link_to == o.link_to &&
           compute == o.compute && remote == o.remote;
  }
  static uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }
};

struct OpCostHash {
  size_t operator()(const OpCost& c) const {
    uint64_t h = OpCost::bits(c.core_us) * 0x9E3779B97F4A7C15ULL;
    h ^= OpCost::bits(c.hbm_bytes) + 0x7F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= OpCost::bits(c.link_bytes) + static_cast<uint64_t>(c.pipe) + (h << 6) + (h >> 2);
    return static_cast<size_t>(h);
  }
};

// `e` is the op's OpEnd event; `rank` the rank it runs on.
OpCost op_cost(const runtime::events::Event& e, int rank, const TimingParams& p);

}  // namespace ptodist::timing
