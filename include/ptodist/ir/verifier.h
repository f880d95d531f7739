// Well-formedness of a program: scoping (every use defined on every path), fixed variable types,
// every op's contract, function-level contracts (one async session per kernel, no session beside an
// async prefetch, sessions only in InCore/AIV kernels), calls against their callees.
#pragma once

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::ir {

// Reports every problem found; returns true when there is none. Callable after any pass.
bool verify_program(const Program& p, DiagnosticEngine& diags);

}  // namespace ptodist::ir
