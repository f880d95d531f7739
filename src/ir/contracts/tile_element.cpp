// Contracts of one element of a tile (pl.tile.read / pl.tile.write), after PyPTO's DeduceTileReadType
// and DeduceTileWriteType (src/ir/op/tile_ops/memory.cpp): a Vec tile, one integer index per dim.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The tile operand, in Vec, with `indices` one integer per dim inside it where constant.
const TypeNode* element_of(const ContractContext& cx) {
  const TypeNode* t = need_tile(cx, "tile");
  if (!t) return nullptr;
  if (t->memory != Memory::Vec) {
    cx.fail("tile", "'tile' must be a tile in pl.Mem.Vec, got " + type_str(cx.arg("tile")->type) +
                        "; use pl.move(x, target_memory=pl.Mem.Vec)");
    return nullptr;
  }
  const std::vector<Expr>* indices = need_int_list(cx, "indices", static_cast<int>(t->shape.size()), "tile");
  if (!indices) return nullptr;
  std::vector<Expr> ones(indices->size(), const_dim(1));
  return check_in_bounds(cx, "indices", *indices, ones, t->shape, "tile") ? t : nullptr;
}

}  // namespace

Type check_TileRead(const ContractContext& cx) {
  const TypeNode* t = element_of(cx);
  return t ? scalar_type(t->dtype) : nullptr;
}

// PyPTO requires the value's dtype to be the tile's; a literal takes the tile's dtype (an int literal
// only into an integer tile: a float is not narrowed implicitly).
Type check_TileWrite(const ContractContext& cx) {
  const TypeNode* t = element_of(cx);
  if (!t || !need_scalar(cx, "value")) return nullptr;
  const Expr& v = cx.arg("value");
  bool literal = v->isa<IntImm>() || v->isa<FloatImm>();
  if (literal && !(v->isa<FloatImm>() && !dtype_is_float(t->dtype))) return cx.arg("tile")->type;
  if (!literal && v->type->dtype == t->dtype) return cx.arg("tile")->type;
  return cx.fail("value", "'value' is " + type_str(v->type) + " but 'tile' holds " + dtype_str(t->dtype) +
                              "; use pl.cast(value, " + dtype_str(t->dtype) + ")");
}

}  // namespace ptodist::ir
