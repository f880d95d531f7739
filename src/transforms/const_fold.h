// Constant folding of scalar expressions with Python semantics (used by specialize).
#pragma once

#include "ptodist/ir/builder.h"

namespace ptodist::transforms::detail {

// Folds `e` (whose children are already folded) to an IntImm/FloatImm/BoolImm, a chosen IfExp arm or
// a tuple element when its operands are constants; otherwise returns `e`. What Python would raise
// (division by zero, a result outside 64 bits) is reported at `e` and returns null.
ir::Expr fold_constant(const ir::Expr& e, ir::Builder& b);

// True for IntImm, FloatImm and BoolImm.
bool is_scalar_constant(const ir::Expr& e);

}  // namespace ptodist::transforms::detail
