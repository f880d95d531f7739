// The GM slot buffer of the a2a3 cross-core pipes. On Ascend910B a pipe's slots ride through GM, not a
// direct cube-vector fabric, so PyPTO gives every kernel that initialises a pipe a `__gm_pipe_buffer`
// pointer (its InjectGMPipeBuffer pass) and its codegen places each pipe in a region of that buffer.
// ptodist emits the same from the emitter alone: the runtime's pipes need no GM.
#pragma once

#include <map>
#include <utility>

#include "ptodist/ir/function.h"

namespace ptodist::codegen::pto {

// The region of each pipe, keyed by (pipe id, dir_mask): byte offsets in key order, each region as
// large as the pipe's rings of slots (PyPTO's gm_pipe_layout.h), and the buffer's whole size.
struct GmPipeLayout {
  std::map<std::pair<long long, long long>, long long> offsets;
  long long bytes = 0;
};

// Slots, rings and bytes of one pipe: `slot_num` slots (PTOAS's default, 8 for a one-way pipe and 4
// per ring of a two-way one, when it is 0) in one ring per direction.
long long gm_pipe_footprint(long long dir_mask, long long slot_num, long long slot_size);

// Every initialize_pipe of the program's kernels, laid out.
GmPipeLayout gm_pipe_layout(const ir::ProgramNode& program);

}  // namespace ptodist::codegen::pto
