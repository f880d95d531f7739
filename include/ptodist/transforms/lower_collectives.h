// lower-collectives: rewrites pld.tensor collectives into put / get / remote_load / notify / wait.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Lowers pld.tensor.barrier, broadcast, allgather, reduce_scatter, allreduce, all_to_all and
// all_to_all_v in kernels into ordinary transfers, tile reductions and PyPTO's self-clearing credit
// barrier on the signal window (docs/language.md, "Collectives").
ir::Program lower_collectives(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
