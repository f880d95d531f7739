// The broadcast family of expand_ops.def as data: the axis and the combining op of each row, and its
// PTO instruction, for the contracts, the executor and the emitter that treat the family alike.
#pragma once

#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

enum class ExpandAxis { kRow, kCol };
enum class ExpandCombine { kAdd, kSub, kMul, kDiv, kMax, kMin, kExpDif, kCopy };

struct ExpandOpInfo {
  OpId id;
  const char* name;  // "row_expand_mul"
  ExpandAxis axis;
  ExpandCombine combine;
  const char* pto;  // "pto.trowexpandmul"
};

// The row of op `id`, or null when `id` is not an expand op of the table.
const ExpandOpInfo* expand_op_info(OpId id);

}  // namespace ptodist::ir
