// Live ranges of the tile variables of a kernel, for memory planning.
#pragma once

#include <vector>

#include "ptodist/ir/function.h"

namespace ptodist::analysis {

// Where a tile variable is live, in a numbering of the function's statements in program order (a
// compound statement's header before its body). A range that enters or leaves a loop covers the whole
// loop, since every iteration needs the value (or the buffer) again.
struct LiveRange {
  ir::Var var;
  int start = 0;
  int end = 0;                         // inclusive
  const ir::StmtNode* first_def = nullptr;  // the defining assignment that comes first
  // Buffers the tile needs: the `stage` of the innermost `pl.pipeline(n, stage=S)` loop its first
  // definition is in (iteration i uses buffer i % S, so loads of i + 1 overlap compute on i), else 1.
  int copies = 1;
};

// One range per tile variable defined in `f`, ordered by start, then by definition order.
std::vector<LiveRange> tile_live_ranges(const ir::Function& f);

// The positions at which a range is live overlap.
inline bool overlaps(const LiveRange& a, const LiveRange& b) { return a.start <= b.end && b.start <= a.end; }

}  // namespace ptodist::analysis
