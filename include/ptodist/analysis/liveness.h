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
  int end = 0;                              // inclusive
  const ir::StmtNode* first_def = nullptr;  // the defining assignment that comes first
};

// One range per tile variable defined in `f`, ordered by start, then by definition order.
std::vector<LiveRange> tile_live_ranges(const ir::Function& f);

// The positions at which a range is live overlap.
inline bool overlaps(const LiveRange& a, const LiveRange& b) {
  return a.start <= b.end && b.start <= a.end;
}

// The two tiles need distinct bytes. Ranges that only touch do not interfere: a statement reads its
// operands before it writes its result, so a result may take the bytes of an operand whose last use is
// that statement (PyPTO's MemoryReuse rule, `last_use <= def`). Two tiles defined by one statement
// always interfere, since both are written there.
inline bool interferes(const LiveRange& a, const LiveRange& b) {
  return a.start == b.start || (a.start < b.end && b.start < a.end);
}

}  // namespace ptodist::analysis
