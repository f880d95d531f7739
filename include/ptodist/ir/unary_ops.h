// The elementwise unary family of unary_ops.def as data: the dtype rule, PTO instruction and in-place
// property of each op, for the passes and the emitter that treat the family alike.
#pragma once

#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

// Which operand dtypes a unary op takes (unary_ops.def says what each means).
enum class UnaryDTypes { kAnyNumeric, kFloatResult, kFp16Fp32, kFp32Only, kInt16Only };

struct UnaryOpInfo {
  OpId id;
  const char* name;  // "neg"
  UnaryDTypes dtypes;
  const char* pto;   // "pto.tneg"
  bool in_place;     // the result may take the operand's buffer
  bool tensor_form;  // pl.tensor.<name> exists (false: tiles only)
};

// The row of op `id`, or null when `id` is not a unary op of the table.
const UnaryOpInfo* unary_op_info(OpId id);

}  // namespace ptodist::ir
