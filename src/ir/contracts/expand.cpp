// Contracts of the broadcast family (expand_ops.def), after PyPTO's DeduceTileRowExpandType and
// DeduceTileColExpandType (src/ir/op/tile_ops/broadcast.cpp): lhs [M, N], a row vector [M, 1] or a
// column vector [1, N], one dtype; the result has lhs's type.
#include "common.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

const TypeNode* need_operand(const ContractContext& cx, std::string_view name, bool tensor) {
  const TypeNode* t = tensor ? need_tensor_like(cx, name) : need_tile(cx, name);
  if (!t) return nullptr;
  if (!tensor && t->memory != Memory::Vec) {
    cx.fail(name, quoted(name) + " must be a tile in pl.Mem.Vec, got " + type_str(cx.arg(name)->type) +
                      "; use pl.move(x, target_memory=pl.Mem.Vec)");
    return nullptr;
  }
  if (t->shape.size() == 2) return t;
  cx.fail(name, quoted(name) + " must be 2-D, got " + type_str(cx.arg(name)->type));
  return nullptr;
}

// The vector's shape: [M, 1] for a row vector, [1, N] for a column vector (constant dims compared).
bool check_vector_shape(const ContractContext& cx, const ExpandOpInfo& row, const TypeNode& l,
                        const TypeNode& v) {
  bool per_row = row.axis == ExpandAxis::kRow;
  size_t one = per_row ? 1 : 0, same = per_row ? 0 : 1;
  auto o = as_const_int(v.shape[one]);
  auto a = as_const_int(v.shape[same]), b = as_const_int(l.shape[same]);
  if (o && *o == 1 && !(a && b && *a != *b)) return true;
  std::string want = per_row ? "[" + print_expr(l.shape[0]) + ", 1] (one value per row of 'lhs')"
                             : "[1, " + print_expr(l.shape[1]) + "] (one value per column of 'lhs')";
  cx.fail("rhs", "'rhs' must have shape " + want + ", got " + shape_str(v.shape));
  return false;
}

bool check_dtypes(const ContractContext& cx, const ExpandOpInfo& row, DType l, DType v) {
  if (l != v) {
    cx.fail("rhs",
            "'rhs' dtype " + dtype_str(v) + " must match 'lhs' dtype " + dtype_str(l) + "; use pl.cast");
    return false;
  }
  if (l == DType::BOOL) {
    cx.fail("lhs", "'lhs' must have a numeric dtype, got pl.BOOL");
    return false;
  }
  // PyPTO's tile.row_expand_add (PTOAS's TROWEXPANDADD) takes these dtypes only.
  bool add_dtype =
      l == DType::INT8 || l == DType::INT16 || l == DType::INT32 || l == DType::FP16 || l == DType::FP32;
  if (row.id == OpId::RowExpandAdd && !add_dtype) {
    cx.fail("lhs",
            "'lhs' must have dtype pl.INT8, pl.INT16, pl.INT32, pl.FP16 or pl.FP32, got " + dtype_str(l));
    return false;
  }
  if (row.combine == ExpandCombine::kExpDif && !dtype_is_float(l)) {
    cx.fail("lhs", "'lhs' must have a float dtype (pl.FP32, pl.FP16 or pl.BF16), got " + dtype_str(l));
    return false;
  }
  return true;
}

// row_expand_add's optional scratch (PTOAS's overload with a tmp workspace): a Vec tile.
bool check_tmp(const ContractContext& cx) {
  if (op_info(cx.call.op->id).param_index("tmp") < 0 || omitted(cx, "tmp")) return true;
  return need_operand(cx, "tmp", false) != nullptr;
}

Type expand(const ContractContext& cx) {
  const ExpandOpInfo& row = *expand_op_info(cx.call.op->id);
  bool mixed = tile_with_tensor(cx, "lhs", "rhs");
  bool tensor = !mixed && takes_tensors(cx, "lhs");
  auto is_tensor = [&](std::string_view name) {
    const TypeNode* t = type_of(cx, name);
    return tensor || (mixed && t && t->is_tensor_like());
  };
  const TypeNode* l = need_operand(cx, "lhs", is_tensor("lhs"));
  if (!l) return nullptr;
  const TypeNode* v = need_operand(cx, "rhs", is_tensor("rhs"));
  if (!v || !check_dtypes(cx, row, l->dtype, v->dtype) || !check_vector_shape(cx, row, *l, *v) ||
      !check_tmp(cx))
    return nullptr;
  if (tensor) {
    if (!omitted(cx, "tmp")) return cx.fail("tmp", "'tmp' is a tile scratch; a tensor-level call takes none");
    return tensor_type(l->shape, l->dtype);
  }
  // Mixed, the result is the tile convert-tensor-to-tile computes: lhs's shape in Vec.
  return l->kind == TypeKind::Tile ? cx.arg("lhs")->type : tile_type(l->shape, l->dtype, Memory::Vec);
}

}  // namespace

#define PTODIST_EXPAND(Id, name, sig, tile_sig, tensor_sig, axis, combine, pto) \
  Type check_##Id(const ContractContext& cx) {                                  \
    return expand(cx);                                                          \
  }
#include "ptodist/ir/expand_ops.def"
#undef PTODIST_EXPAND

}  // namespace ptodist::ir
