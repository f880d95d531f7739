// plan-memory: liveness-based placement of every tile in its on-chip memory.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Gives each tile variable of each kernel a byte offset in its memory (Vec, Mat, Left, Right, Acc),
// reusing the bytes of dead tiles, aligned to cx.profile.alignment; the offset is recorded as
// TypeNode::addr on the variable's type and on the annotation of its defining assignment. Usage over
// the profile's capacity is an error naming the kernel, the memory, the bytes and the live tiles.
ir::Program plan_memory(const ir::Program& p, PassContext& cx);

// Whether plan-memory would place every tile of kernel `f` within `profile`'s capacities (a conversion
// that makes more tiles asks before it commits to them).
bool tiles_fit_on_chip(const ir::Function& f, const ChipProfile& profile);

}  // namespace ptodist::transforms
