// The rows of expand_ops.def, indexed by op id.
#include "ptodist/ir/expand_ops.h"

namespace ptodist::ir {

namespace {

using enum ExpandAxis;
using enum ExpandCombine;

constexpr ExpandOpInfo kRows[] = {
#define PTODIST_EXPAND(Id, name, sig, tile_sig, tensor_sig, axis, combine, pto) \
  {OpId::Id, name, axis, combine, pto},
#include "ptodist/ir/expand_ops.def"
#undef PTODIST_EXPAND
};

}  // namespace

const ExpandOpInfo* expand_op_info(OpId id) {
  for (const ExpandOpInfo& row : kRows)
    if (row.id == id) return &row;
  return nullptr;
}

}  // namespace ptodist::ir
