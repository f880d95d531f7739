// Internal to the async-event dataflow: the deferred-waiter contract of pld.system.defer_wait
// (PyPTO's DeferredWaitContractValidator). A kernel that registers a deferred completion condition is
// a dedicated waiter: it may compute scalars (pl.read only before its first registration) and
// register conditions, nothing else, because its task completes only after the kernel has ended and
// the kernel is never resumed. The path-sensitive part (what may follow a registration) is a fact of
// the dataflow lattice (EventState::deferred); the structural part (the condition budget) is here.
#pragma once

#include <optional>
#include <string>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::analysis {

// PyPTO's per-waiter budget (Simpler's MAX_COMPLETIONS_PER_TASK).
inline constexpr long long kMaxDeferredConditions = 64;

// Whether `kernel` calls pld.system.defer_wait anywhere in its body.
bool is_deferred_waiter(const ir::FunctionNode& kernel);

// Whether `c` may appear in a deferred waiter at all: pld.system.defer_wait, pl.read, and pure ops
// that compute a scalar (rank, casts, min/max). Anything else is continuation work.
bool allowed_in_waiter(const ir::OpCall& c);

// Checks that the waiter's registrations fit the budget on every path: a loop that registers needs a
// constant trip count. Reports a located error and returns false otherwise.
bool check_deferred_budget(const ir::FunctionNode& kernel, DiagnosticEngine& diags);

}  // namespace ptodist::analysis
