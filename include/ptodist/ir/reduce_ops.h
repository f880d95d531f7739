// The axis reductions of reduce_ops.def as data, for the contracts, the executor and the emitter that
// treat the family alike.
#pragma once

#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

enum class ReduceAxis { kRow, kCol };
enum class ReduceKind { kSum, kMax, kMin, kProd, kArgMax, kArgMin };
enum class ReduceTmp { kNone, kAtLeast, kExact, kOptional };

struct ReduceOpInfo {
  OpId id;
  const char* name;  // "col_sum"
  ReduceAxis axis;
  ReduceKind kind;
  ReduceTmp tmp;
  const char* pto;  // "pto.tcolsum"
};

// The row of op `id`, or null when `id` is not a reduction of the table.
const ReduceOpInfo* reduce_op_info(OpId id);

}  // namespace ptodist::ir
