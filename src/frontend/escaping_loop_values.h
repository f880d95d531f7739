// PyPTO's zero-trip value of a variable that a loop assigns and later code reads (escaping_loop_values.cpp).
#pragma once

#include "ptodist/ir/function.h"

namespace ptodist::frontend {

// Assigns each such variable its zero-trip value before the loop, as PyPTO's ConvertToSSA does.
void seed_escaping_loop_values(ir::FunctionNode& fn);

}  // namespace ptodist::frontend
