// The rows of reduce_ops.def, indexed by op id.
#include "ptodist/ir/reduce_ops.h"

namespace ptodist::ir {

namespace {

using enum ReduceAxis;
using enum ReduceKind;
using enum ReduceTmp;

constexpr ReduceOpInfo kRows[] = {
#define PTODIST_REDUCE(Id, name, sig, tile_sig, axis, kind, tmp, pto) {OpId::Id, name, axis, kind, tmp, pto},
#include "ptodist/ir/reduce_ops.def"
#undef PTODIST_REDUCE
};

}  // namespace

const ReduceOpInfo* reduce_op_info(OpId id) {
  for (const ReduceOpInfo& row : kRows)
    if (row.id == id) return &row;
  return nullptr;
}

}  // namespace ptodist::ir
