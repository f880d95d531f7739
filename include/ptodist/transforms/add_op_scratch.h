// add-op-scratch: each op whose tile form needs a scratch tile gets one.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Rewrites `y = pl.rsqrt(x, high_precision=True)` of a tile into `rsqrt_tmp = pl.tile.create(...)` and
// `y = pl.tile.rsqrt(x, rsqrt_tmp)`, as PyPTO's ConvertTensorToTileOps does, so plan-memory places the
// scratch like any tile and the PTO emitter passes it to pto.trsqrt. Runs after name-tile-operands.
ir::Program add_op_scratch(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
