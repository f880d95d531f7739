// The rows of unary_ops.def, indexed by op id.
#include "ptodist/ir/unary_ops.h"

namespace ptodist::ir {

namespace {

using enum UnaryDTypes;

constexpr UnaryOpInfo kRows[] = {
#define PTODIST_UNARY(Id, name, sig, tile_sig, dtypes, pto, in_place) \
  {OpId::Id, name, dtypes, pto, in_place, true},
#define PTODIST_UNARY_TILE(Id, name, sig, tile_sig, dtypes, pto, in_place) \
  {OpId::Id, name, dtypes, pto, in_place, false},
#include "ptodist/ir/unary_ops.def"
#undef PTODIST_UNARY_TILE
#undef PTODIST_UNARY
};

}  // namespace

const UnaryOpInfo* unary_op_info(OpId id) {
  for (const UnaryOpInfo& row : kRows)
    if (row.id == id) return &row;
  return nullptr;
}

}  // namespace ptodist::ir
