// check-async-events and print-async-events: the path-sensitive async put contract (DESIGN.md §4).
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Reports every async event that may be outstanding at the end of a kernel or at a notify, waited twice
// on a path, or waited with another session; returns the program unchanged when there is none.
ir::Program check_async_events(const ir::Program& p, PassContext& cx);

// Prints the analysis facts of every kernel to cx.analysis_out (golden tests); never fails.
ir::Program print_async_events(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
