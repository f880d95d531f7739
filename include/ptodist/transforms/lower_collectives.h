// lower-collectives: rewrites pld.tensor collectives into put / notify / wait.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Lowers pld.tensor.barrier, broadcast, allgather, reduce_scatter, allreduce and all_to_all into
// synchronous puts, signal notifies and waits (and, for the reductions, tile loads/adds/stores).
ir::Program lower_collectives(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
