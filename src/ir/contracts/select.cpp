// Contracts of the comparisons and selections (pl.cmp, pl.cmps, pl.sel) and of pl.concat, after
// PyPTO's DeduceTileCmpType / DeduceTileSelType (src/ir/op/tile_ops/elementwise.cpp) and
// DeduceTileConcatType (tile_ops/transform.cpp).
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The element types whose every value a double holds exactly, which the executor compares in; INT64 is
// left out (pto-isa's TCMP does not take it either).
bool comparable(DType t) {
  return t != DType::INT64 && t != DType::BOOL && t != DType::INDEX;
}

// PyPTO's packed predicate mask of a [R, C] comparison: UINT8 [R, ceil(C / 8) rounded up to 32] (the
// A2/A3 row alignment of TCMP's output), of which the first ceil(C / 8) bytes of each row are valid.
// Bit j % 8 of byte j / 8 is element j's predicate (pto-isa TSEL reads it so). A symbolic C (a module
// constant before specialize) gives the width as an expression; specialize re-types the call.
Type packed_mask(const TypeNode* t) {
  auto cols = as_const_int(t->shape[1]);
  if (!cols) {
    Expr bytes =
        arith(BinaryOpKind::FloorDiv, arith(BinaryOpKind::Add, t->shape[1], const_dim(7)), const_dim(8));
    Expr width =
        arith(BinaryOpKind::Mul,
              arith(BinaryOpKind::FloorDiv, arith(BinaryOpKind::Add, bytes, const_dim(31)), const_dim(32)),
              const_dim(32));
    return tile_type({t->shape[0], width}, DType::UINT8, Memory::Vec);
  }
  long long bytes = (*cols + 7) / 8;
  long long width = (bytes + 31) / 32 * 32;
  auto out =
      std::make_shared<TypeNode>(*tile_type({t->shape[0], const_dim(width)}, DType::UINT8, Memory::Vec));
  Expr valid_rows = t->valid_shape.empty() ? t->shape[0] : t->valid_shape[0];
  auto valid_cols = t->valid_shape.empty() ? cols : as_const_int(t->valid_shape[1]);
  if (!valid_cols) return out;  // a run-time valid region: the executor computes the mask's
  long long valid_bytes = (*valid_cols + 7) / 8;
  if (valid_bytes != width || !t->valid_shape.empty())
    out->valid_shape = {valid_rows, const_dim(valid_bytes)};
  return out;
}

// 'rhs' of lhs's dtype and (where both are constant) shape; `hint` follows the dtype message.
bool matches_lhs(const ContractContext& cx, const TypeNode* l, const TypeNode* r, const std::string& hint) {
  if (r->dtype != l->dtype) {
    cx.fail("rhs",
            "'rhs' dtype " + dtype_str(r->dtype) + " must match 'lhs' dtype " + dtype_str(l->dtype) + hint);
    return false;
  }
  auto a = const_values(l->shape), b = const_values(r->shape);
  if (a && b && *a != *b) {
    cx.fail("rhs", "'rhs' shape " + shape_str(r->shape) + " must match 'lhs' shape " + shape_str(l->shape));
    return false;
  }
  return true;
}

// cmp_type: PyPTO's int code, 0 to 5 (eq, ne, lt, le, gt, ge); omitted means 0.
bool check_cmp_type(const ContractContext& cx) {
  if (omitted(cx, "cmp_type")) return true;
  auto code = as_const_int(cx.arg("cmp_type"));
  if (code && *code >= 0 && *code <= 5) return true;
  cx.fail("cmp_type", "'cmp_type' must be an int literal from 0 to 5 (eq, ne, lt, le, gt, ge), got " +
                          describe(cx.arg("cmp_type")));
  return false;
}

const TypeNode* comparable_lhs(const ContractContext& cx) {
  const TypeNode* l = need_vec_tile(cx, "lhs", true);
  if (!l) return nullptr;
  if (!comparable(l->dtype)) {
    cx.fail("lhs", "'lhs' dtype " + dtype_str(l->dtype) + " cannot be compared; use pl.cast");
    return nullptr;
  }
  return l;
}

// PyPTO's tensor.cmp (pl.cmp / pl.tensor.cmp of a GM tensor): a new tensor of lhs's shape and dtype
// holding 1 where the comparison holds and 0 elsewhere; rhs a scalar or a tensor like lhs.
Type tensor_compare(const ContractContext& cx) {
  const TypeNode* l = need_tensor_like(cx, "lhs");
  if (!l || !check_cmp_type(cx)) return nullptr;
  if (!comparable(l->dtype))
    return cx.fail("lhs", "'lhs' dtype " + dtype_str(l->dtype) + " cannot be compared; use pl.cast");
  const TypeNode* r = type_of(cx, "rhs");
  if (!r || r->kind != TypeKind::Scalar) {
    r = need_tensor_like(cx, "rhs");
    if (!r || !matches_lhs(cx, l, r, "; use pl.cast")) return nullptr;
  }
  return tensor_type(l->shape, l->dtype);
}

}  // namespace

// pl.cmp / pl.tile.cmp: two tiles of one dtype and shape; the unified pl.cmp with a scalar rhs is
// PyPTO's tile.cmps (its unified_ops.py dispatches so), which pl.tile.cmp does not do; of a GM tensor,
// PyPTO's tensor.cmp.
Type check_Cmp(const ContractContext& cx) {
  if (takes_tensors(cx, "lhs")) return tensor_compare(cx);
  const TypeNode* l = comparable_lhs(cx);
  if (!l || !check_cmp_type(cx)) return nullptr;
  const TypeNode* r = type_of(cx, "rhs");
  if (r && r->kind == TypeKind::Scalar && spelled_in(cx) == Namespace::Unified) return packed_mask(l);
  r = need_vec_tile(cx, "rhs", true);
  if (!r || !matches_lhs(cx, l, r, "; use pl.cast")) return nullptr;
  return packed_mask(l);
}

// pl.cmps / pl.tile.cmps: a tile against a scalar.
Type check_Cmps(const ContractContext& cx) {
  const TypeNode* l = comparable_lhs(cx);
  if (!l || !check_cmp_type(cx) || !need_scalar(cx, "rhs")) return nullptr;
  return packed_mask(l);
}

// pl.sel / pl.tile.sel: lhs where the mask's bit is set, rhs elsewhere. ptodist takes lhs and rhs of one
// dtype and shape (PyPTO promotes and broadcasts them); the mask is a UINT8 tile whose rows hold at
// least one bit per column; tmp is TSEL's scratch, which the CPU does not use.
Type check_Sel(const ContractContext& cx) {
  const TypeNode* l = need_vec_tile(cx, "lhs", true);
  if (!l) return nullptr;
  const TypeNode* r = need_vec_tile(cx, "rhs", true);
  if (!r || !matches_lhs(cx, l, r, " (ptodist does not promote here); use pl.cast")) return nullptr;
  auto a = const_values(l->shape);
  const TypeNode* m = need_vec_tile(cx, "mask", true);
  if (!m) return nullptr;
  auto ms = const_values(m->shape);
  if (m->dtype != DType::UINT8 || (ms && a && ((*ms)[0] != (*a)[0] || (*ms)[1] * 8 < (*a)[1])))
    return cx.fail("mask", "'mask' must be a pl.UINT8 tile of " + shape_str(l->shape) +
                               "'s rows with a bit per column (the result of pl.cmp), got " +
                               type_str(cx.arg("mask")->type));
  if (!need_tile(cx, "tmp")) return nullptr;
  return cx.arg("lhs")->type;
}

// pl.concat / pl.tile.concat: the columns of src0 then those of src1, same dtype and row count (as in
// PyPTO, rows are compared where both are constant: symbolic ones are checked after specialize).
Type check_Concat(const ContractContext& cx) {
  if (takes_tensors(cx, "src0"))
    return cx.fail("src0", "concatenating GM tensors is not supported by ptodist yet; load them into tiles");
  const TypeNode* a = need_vec_tile(cx, "src0", true);
  if (!a) return nullptr;
  const TypeNode* b = need_vec_tile(cx, "src1", true);
  if (!b) return nullptr;
  if (a->dtype != b->dtype)
    return cx.fail("src1",
                   "'src1' dtype " + dtype_str(b->dtype) + " must match 'src0' dtype " + dtype_str(a->dtype));
  auto r0 = as_const_int(a->shape[0]), r1 = as_const_int(b->shape[0]);
  if (r0 && r1 && *r0 != *r1)
    return cx.fail("src1", "'src1' must have " + std::to_string(*r0) + " rows as 'src0' has, got " +
                               type_str(cx.arg("src1")->type));
  if (!a->valid_shape.empty() || !b->valid_shape.empty())
    return cx.fail("src0", "partially valid tiles are not supported by ptodist here yet");
  auto c0 = as_const_int(a->shape[1]), c1 = as_const_int(b->shape[1]);
  Expr cols = c0 && c1 ? const_dim(*c0 + *c1) : arith(BinaryOpKind::Add, a->shape[1], b->shape[1]);
  return tile_type({a->shape[0], cols}, a->dtype, Memory::Vec);
}

}  // namespace ptodist::ir
