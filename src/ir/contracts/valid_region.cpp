// Contracts of the valid-region ops, after PyPTO's DeduceTileSetValidShapeType /
// DeduceTensorSetValidShapeType (src/ir/op/{tile,tensor}_ops/transform.cpp) and its tile.fillpad /
// tensor.fillpad and tile/tensor.fillpad_expand type rules (tile_ops/elementwise.cpp,
// tensor_ops/memory.cpp).
#include "common.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The operand of a valid-region op: a tile (in Vec when `vec_only`) or, for the tensor-level form, a GM
// tensor, of rank 2 when `two_d` (set_validshape takes [rows, cols] only).
const TypeNode* need_region_operand(const ContractContext& cx, std::string_view name, bool vec_only,
                                    bool two_d) {
  bool tensor = takes_tensors(cx, name);
  const TypeNode* t = tensor ? need_tensor_like(cx, name) : need_tile(cx, name);
  if (!t) return nullptr;
  if (vec_only && !tensor && t->memory != Memory::Vec) {
    cx.fail(name, quoted(name) + " must be a tile in pl.Mem.Vec, got " + type_str(cx.arg(name)->type) +
                      "; use pl.move(x, target_memory=pl.Mem.Vec)");
    return nullptr;
  }
  if (two_d && t->shape.size() != 2) {
    cx.fail(name, quoted(name) + " must be 2-D, got " + type_str(cx.arg(name)->type));
    return nullptr;
  }
  return t;
}

// A valid extent: an integer scalar, when constant in [0, bound] (PyPTO checks both).
bool check_extent(const ContractContext& cx, std::string_view name, const Expr& bound) {
  if (!need_int_scalar(cx, name)) return false;
  auto v = as_const_int(cx.arg(name));
  if (!v) return true;
  if (*v < 0) {
    cx.fail(name, quoted(name) + " must be >= 0, got " + std::to_string(*v));
    return false;
  }
  auto b = as_const_int(bound);
  if (b && *v > *b) {
    cx.fail(name,
            quoted(name) + " (" + std::to_string(*v) + ") exceeds the operand's dim " + std::to_string(*b));
    return false;
  }
  return true;
}

// pad_value: pl.PadValue.zero/max/min, or the literal 0 (PyPTO's sugar for zero). PyPTO also spells
// max/min as math.inf / -math.inf, which the command line does not evaluate.
bool check_pad_value(const ContractContext& cx, std::string_view name) {
  if (omitted(cx, name)) return true;
  const Expr& e = cx.arg(name);
  if (auto en = e->as<EnumImm>(); en && en->enum_kind == EnumKind::PadValue && en->value != "null")
    return true;
  if (auto z = as_const_int(e); z && *z == 0 && !e->isa<BoolImm>()) return true;
  if (auto f = e->as<FloatImm>(); f && f->value == 0) return true;
  cx.fail(name, quoted(name) +
                    " must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min (or the literal "
                    "0), got " +
                    describe(e));
  return false;
}

// fillpad's result: the operand's shape and dtype, valid everywhere.
Type fillpad(const ContractContext& cx, std::string_view operand) {
  const TypeNode* t = need_region_operand(cx, operand, true, false);
  if (!t || !check_pad_value(cx, "pad_value")) return nullptr;
  if (t->is_tensor_like()) return tensor_type(t->shape, t->dtype);
  return tile_type(t->shape, t->dtype, t->memory);
}

}  // namespace

Type check_SetValidShape(const ContractContext& cx) {
  const TypeNode* t = need_region_operand(cx, "input", false, true);
  if (!t || !check_extent(cx, "valid_rows", t->shape[0]) || !check_extent(cx, "valid_cols", t->shape[1]))
    return nullptr;
  // A tensor keeps its type but for the valid region, as a tile does (PyPTO's TensorView valid_shape):
  // an assemble of it writes only that region, and its load into a tile is partially valid.
  auto out = t->is_tensor_like() ? std::make_shared<TypeNode>(*t)
                                 : std::make_shared<TypeNode>(*tile_type(t->shape, t->dtype, t->memory));
  out->valid_shape = {cx.arg("valid_rows"), cx.arg("valid_cols")};
  return out;
}

Type check_FillPad(const ContractContext& cx) {
  return fillpad(cx, "value");
}

Type check_FillPadInplace(const ContractContext& cx) {
  return fillpad(cx, "tile");
}

// A larger result: `shape` has the operand's rank and no dim smaller than the operand's; all of it valid.
Type check_FillPadExpand(const ContractContext& cx) {
  const TypeNode* t = need_region_operand(cx, "value", true, false);
  if (!t) return nullptr;
  const std::vector<Expr>* shape = need_int_list(cx, "shape", static_cast<int>(t->shape.size()), "value");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  for (size_t i = 0; i < shape->size(); ++i) {
    auto to = as_const_int((*shape)[i]), from = as_const_int(t->shape[i]);
    if (to && from && *to < *from)
      return cx.fail("shape", "'shape' dim " + std::to_string(i) + " (" + std::to_string(*to) +
                                  ") is smaller than the operand's (" + std::to_string(*from) +
                                  "); fillpad_expand only grows a tile");
  }
  if (!check_pad_value(cx, "pad_value")) return nullptr;
  if (t->is_tensor_like()) return tensor_type(*shape, t->dtype);
  return tile_type(*shape, t->dtype, t->memory);
}

}  // namespace ptodist::ir
