// specialize: binds factory parameters and folds every compile-time constant.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Binds factory parameters (from cx.bindings, else their defaults; `world_size` is the rank count),
// substitutes factory and module constants, folds constant expressions in bodies and in type shapes,
// prunes `if`s whose condition is constant, and returns a program with no factory parameters left.
ir::Program specialize(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
