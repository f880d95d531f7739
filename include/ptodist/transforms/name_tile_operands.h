// name-tile-operands: every tile an op computes for another op's operand gets a variable of its own.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Rewrites `pl.add(pl.load(...), pl.load(...))` in a kernel into assignments of the inner tiles to fresh
// variables before the statement, in evaluation order, so plan-memory places those tiles and PTO
// emission gives each its buffer like any named tile.
ir::Program name_tile_operands(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
