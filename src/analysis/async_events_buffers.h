// Internal to the async-event dataflow: the GM regions an op reads or writes, as far as they are known
// at compile time, so that a write of a pending put_async's source (or any access of a pending
// get_async's destination) is found before the kernel runs.
#pragma once

#include <functional>
#include <vector>

#include "ptodist/analysis/async_events.h"
#include "ptodist/ir/expr.h"

namespace ptodist::analysis {

struct GmAccess {
  GmRegion region;
  bool write = false;
};

// Maps a tensor variable to the variable it is another name of (`t2 = pl.store(..., t)`).
using RootOf = std::function<const ir::VarNode*(const ir::VarNode*)>;

// The local GM side of an async transfer (the source of a put_async, the destination of a get_async).
GmRegion transfer_local_region(const ir::OpCall& c, const RootOf& root);
// The GM regions `c` reads and writes on the issuing core's side (loads, stores, scalar reads and
// writes, the local side of synchronous and asynchronous transfers, a remote store's source).
std::vector<GmAccess> gm_accesses(const ir::OpCall& c, const RootOf& root);

}  // namespace ptodist::analysis
