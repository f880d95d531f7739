// Structural equality of IR: same shape of nodes, same constants, variables matched by position of
// definition rather than by identity. Unit tests of passes compare programs with it.
#pragma once

#include <string>

#include "ptodist/ir/function.h"

namespace ptodist::ir {

// On mismatch, `why` (when given) receives a one-line description of the first difference.
bool structural_equal(const Program& a, const Program& b, std::string* why = nullptr);
bool structural_equal(const Function& a, const Function& b, std::string* why = nullptr);

}  // namespace ptodist::ir
