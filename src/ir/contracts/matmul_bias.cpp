// The contracts of the cube's variants beyond pl.matmul / pl.matmul_acc (matmul.cpp):
// - pl.matmul_bias / pl.tile.matmul_bias, after PyPTO's DeduceTileMatMulBiasType
//   (src/ir/op/tile_ops/matmul.cpp): lhs [M, K] @ rhs [K, N] + bias [1, N] into an [M, N] Acc tile of
//   the accumulator dtype (FP32 for float inputs, INT32 for INT8), valid over lhs's valid rows and
//   rhs's valid columns.
// - pl.gemv / pl.gemv_acc / pl.gemv_bias (PyPTO's DeduceTileGemv*Type, same file): the M == 1 product
//   of a [1, K] lhs, into a [16, N] Acc tile (one cube fractal of rows) valid over [1, rhs valid N].
// PyPTO places the operands itself (Left, Right, Bias, moving them from L1); ptodist takes them there or
// still in Mat, where the CPU reads them alike and the PTO emitter asks for the moves.
#include "common.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A 2-D tile operand in `home` (the cube buffer the op reads it from) or in Mat.
const TypeNode* need_cube_operand(const ContractContext& cx, std::string_view name, Memory home) {
  const TypeNode* t = need_tile(cx, name);
  if (!t) return nullptr;
  if (t->memory != home && t->memory != Memory::Mat) {
    cx.fail(name, quoted(name) + " must be a tile in " + mem_str(home) + " or pl.Mem.Mat, got " +
                      type_str(cx.arg(name)->type) + "; load it with target_memory=pl.Mem.Mat");
    return nullptr;
  }
  if (t->shape.size() != 2) {
    cx.fail(name, quoted(name) + " must be a 2-D tile, got " + type_str(cx.arg(name)->type));
    return nullptr;
  }
  return t;
}

// Dim `i` of `t`'s valid region (its shape's where the whole tile is valid).
const Expr& valid_dim(const TypeNode* t, size_t i) {
  return t->valid_shape.empty() ? t->shape[i] : t->valid_shape[i];
}

// The [1, N] bias of a biased product whose rhs is `r` and whose inputs have dtype `in`: its shape, its
// valid columns covering the product's, and the accumulator dtype.
bool check_bias_row(const ContractContext& cx, const TypeNode* b, const TypeNode* r, DType in) {
  auto rows = as_const_int(b->shape[0]);
  if (!rows || *rows != 1) {
    cx.fail("bias", "'bias' must have shape [1, N] (one row, added to every row of the product), got " +
                        type_str(cx.arg("bias")->type));
    return false;
  }
  if (dims_differ(b->shape[1], r->shape[1])) {
    cx.fail("bias", "'bias' shape " + shape_str(b->shape) + " must have the product's N = rhs dim 1 (" +
                        shape_str(r->shape) + ")");
    return false;
  }
  auto bias_n = as_const_int(valid_dim(b, 1)), out_n = as_const_int(valid_dim(r, 1));
  if (bias_n && out_n && *bias_n < *out_n) {
    cx.fail("bias", "'bias' valid columns (" + std::to_string(*bias_n) +
                        ") must cover the product's valid N (" + std::to_string(*out_n) + ")");
    return false;
  }
  DType acc = in == DType::INT8 ? DType::INT32 : DType::FP32;
  if (b->dtype != acc) {
    cx.fail("bias", "'bias' must have the accumulator dtype " + dtype_str(acc) + " (for " + dtype_str(in) +
                        " inputs), got " + dtype_str(b->dtype));
    return false;
  }
  return true;
}

// lhs and rhs of a product: cube operands of one cube dtype, lhs's K equal to rhs's rows, rhs's valid
// rows covering lhs's valid K.
bool check_product(const ContractContext& cx, const TypeNode*& l, const TypeNode*& r) {
  l = need_cube_operand(cx, "lhs", Memory::Left);
  if (!l) return false;
  r = need_cube_operand(cx, "rhs", Memory::Right);
  if (!r || !need_cube_input(cx, "lhs", l)) return false;
  if (r->dtype != l->dtype) {
    cx.fail("rhs", "'rhs' dtype " + dtype_str(r->dtype) + " must match 'lhs' dtype " + dtype_str(l->dtype));
    return false;
  }
  if (dims_differ(l->shape[1], r->shape[0])) {
    cx.fail("rhs", "'rhs' shape " + shape_str(r->shape) + " does not fit 'lhs' shape " + shape_str(l->shape) +
                       ": lhs dim 1 and rhs dim 0 (K) must be equal");
    return false;
  }
  auto lhs_k = as_const_int(valid_dim(l, 1)), rhs_k = as_const_int(valid_dim(r, 0));
  if (lhs_k && rhs_k && *rhs_k < *lhs_k) {
    cx.fail("rhs", "'rhs' valid rows (" + std::to_string(*rhs_k) + ") must cover 'lhs' valid K (" +
                       std::to_string(*lhs_k) + ")");
    return false;
  }
  return true;
}

// The GEMV result of `l` @ `r`, after PyPTO's BuildGemvResultType: lhs is one row (shape and valid
// region), the result a [16, N] Acc tile (the cube writes a whole 16-row fractal) valid over
// [1, rhs valid N]. acc_phase, when given, is one of PyPTO's three phase names.
Type gemv_result(const ContractContext& cx, const TypeNode* l, const TypeNode* r) {
  if (!omitted(cx, "acc_phase")) {
    const auto* p = cx.arg("acc_phase")->as<StrImm>();
    if (!p || (p->value != "unspecified" && p->value != "partial" && p->value != "final"))
      return cx.fail("acc_phase", "'acc_phase' must be 'unspecified', 'partial' or 'final', got " +
                                      print_expr(cx.arg("acc_phase")));
  }
  auto rows = as_const_int(l->shape[0]), valid_rows = as_const_int(valid_dim(l, 0));
  if (!rows || *rows != 1 || !valid_rows || *valid_rows != 1)
    return cx.fail("lhs", "'lhs' must be one row, shape [1, K] with one valid row, got " +
                              type_str(cx.arg("lhs")->type) + "; use pl.matmul for more rows");
  DType acc = l->dtype == DType::INT8 ? DType::INT32 : DType::FP32;
  auto out = std::make_shared<TypeNode>(*tile_type({const_dim(16), r->shape[1]}, acc, Memory::Acc));
  out->valid_shape = {const_dim(1), valid_dim(r, 1)};
  return out;
}

}  // namespace

Type check_MatmulBias(const ContractContext& cx) {
  const TypeNode *l = nullptr, *r = nullptr;
  if (!check_product(cx, l, r)) return nullptr;
  const TypeNode* b = need_cube_operand(cx, "bias", Memory::Bias);
  if (!b || !check_bias_row(cx, b, r, l->dtype)) return nullptr;
  DType acc = l->dtype == DType::INT8 ? DType::INT32 : DType::FP32;
  auto out = std::make_shared<TypeNode>(*tile_type({l->shape[0], r->shape[1]}, acc, Memory::Acc));
  if (!l->valid_shape.empty() || !r->valid_shape.empty())
    out->valid_shape = {valid_dim(l, 0), valid_dim(r, 1)};
  return out;
}

Type check_Gemv(const ContractContext& cx) {
  const TypeNode *l = nullptr, *r = nullptr;
  if (!check_product(cx, l, r)) return nullptr;
  return gemv_result(cx, l, r);
}

Type check_GemvBias(const ContractContext& cx) {
  const TypeNode *l = nullptr, *r = nullptr;
  if (!check_product(cx, l, r)) return nullptr;
  const TypeNode* b = need_cube_operand(cx, "bias", Memory::Bias);
  if (!b || !check_bias_row(cx, b, r, l->dtype)) return nullptr;
  auto bias_rows = as_const_int(valid_dim(b, 0));
  if (!bias_rows || *bias_rows != 1)
    return cx.fail("bias", "'bias' must have one valid row, got " + type_str(cx.arg("bias")->type));
  return gemv_result(cx, l, r);
}

// acc += lhs @ rhs: acc must be what pl.gemv of lhs and rhs returns (shape, dtype and valid region), as
// PyPTO's DeduceTileGemvAccType requires; the result is the updated accumulator.
Type check_GemvAcc(const ContractContext& cx) {
  const TypeNode* a = need_tile(cx, "acc");
  if (!a) return nullptr;
  const TypeNode *l = nullptr, *r = nullptr;
  if (!check_product(cx, l, r)) return nullptr;
  Type want = gemv_result(cx, l, r);
  if (!want) return nullptr;
  if (a->shape.size() != 2 || shapes_differ(a->shape, want->shape) || a->dtype != want->dtype)
    return cx.fail("acc", "'acc' must be the " + type_str(want) +
                              " that pl.gemv of 'lhs' and 'rhs' gives, got " + type_str(cx.arg("acc")->type));
  for (size_t i = 0; i < 2; ++i)
    if (dims_differ(valid_dim(a, i), want->valid_shape[i]))
      return cx.fail("acc", "'acc' must be valid over [1, " + print_expr(want->valid_shape[1]) +
                                "] as the product is, got " + type_str(cx.arg("acc")->type));
  return want;
}

}  // namespace ptodist::ir
