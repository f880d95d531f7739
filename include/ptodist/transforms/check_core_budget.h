// check-core-budget: kernels that synchronise inside one manual_scope must fit the chip together.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Reports a pl.manual_scope whose spmd_submits, with constant core_num, need more cube (AIC) or vector
// (AIV) cores than cx.profile has while one of them waits on a signal (they would deadlock unless all
// are resident at once); returns the program unchanged when there is none.
ir::Program check_core_budget(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
