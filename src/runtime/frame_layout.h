// Internal: dense frame slots for the variables of every function of a program.
#pragma once

#include <unordered_map>

#include "ptodist/ir/function.h"

namespace ptodist::runtime {

// Gives every variable of every function a slot (ir::VarNode::frame_slot), unique among the variables
// of each function that uses it, so a frame is a vector indexed by slot rather than a hash map keyed by
// variable id. Idempotent: a program laid out before (another Runtime over it) keeps its slots. Call
// before any thread runs the program. Returns each function's frame size (its highest slot + 1), so a
// frame is sized once rather than grown by every first binding.
std::unordered_map<const ir::FunctionNode*, int> lay_out_frames(const ir::ProgramNode& program);

}  // namespace ptodist::runtime
