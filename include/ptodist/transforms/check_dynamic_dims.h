// check-dynamic-dims: every pl.dynamic dim a program uses has a value at run time and in PTO code.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Reports a pl.dynamic name that a kernel uses but none of its tensor parameters has in its shape (PTO
// code gets a dim's value only as a kernel argument beside those tensors), and one that a program with
// a host orchestrator uses but none of the host's parameters has (a run binds dims from the host's
// tensors); returns the program unchanged when there is none.
ir::Program check_dynamic_dims(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
