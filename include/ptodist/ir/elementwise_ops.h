// The elementwise arithmetic ops: element i of the result from element i of the operands, one
// operation each (add, sub, mul, div, maximum, minimum, fmod, their scalar forms, the partial
// combines, exp). The passes and the
// PTO emitter that treat these alike (tile conversion, in-place planning, tensor forms) ask here.
#pragma once

#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

inline bool is_elementwise_arith(OpId id) {
  switch (id) {
    case OpId::Add:
    case OpId::Sub:
    case OpId::Mul:
    case OpId::Div:
    case OpId::Maximum:
    case OpId::Minimum:
    case OpId::Adds:
    case OpId::Muls:
    case OpId::Subs:
    case OpId::Divs:
    case OpId::Maximums:
    case OpId::Minimums:
    case OpId::Fmod:
    case OpId::Fmods:
    case OpId::PartAdd:
    case OpId::PartMul:
    case OpId::PartMax:
    case OpId::PartMin:
    case OpId::Exp:
      return true;
    default:
      return false;
  }
}

}  // namespace ptodist::ir
