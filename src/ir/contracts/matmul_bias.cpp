// The contract of pl.matmul_bias / pl.tile.matmul_bias, after PyPTO's DeduceTileMatMulBiasType
// (src/ir/op/tile_ops/matmul.cpp): lhs [M, K] @ rhs [K, N] + bias [1, N] into an [M, N] Acc tile of the
// accumulator dtype (FP32 for float inputs, INT32 for INT8), valid over lhs's valid rows and rhs's valid
// columns. PyPTO places the operands itself (Left, Right, Bias, moving them from L1); ptodist takes them
// there or still in Mat, where the CPU reads them alike and the PTO emitter asks for the moves.
#include "common.h"

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

}  // namespace

Type check_MatmulBias(const ContractContext& cx) {
  const TypeNode* l = need_cube_operand(cx, "lhs", Memory::Left);
  if (!l) return nullptr;
  const TypeNode* r = need_cube_operand(cx, "rhs", Memory::Right);
  if (!r) return nullptr;
  const TypeNode* b = need_cube_operand(cx, "bias", Memory::Bias);
  if (!b) return nullptr;
  if (!need_cube_input(cx, "lhs", l)) return nullptr;
  if (r->dtype != l->dtype)
    return cx.fail("rhs",
                   "'rhs' dtype " + dtype_str(r->dtype) + " must match 'lhs' dtype " + dtype_str(l->dtype));
  if (dims_differ(l->shape[1], r->shape[0]))
    return cx.fail("rhs", "'rhs' shape " + shape_str(r->shape) + " does not fit 'lhs' shape " +
                              shape_str(l->shape) + ": lhs dim 1 and rhs dim 0 (K) must be equal");
  auto lhs_k = as_const_int(valid_dim(l, 1)), rhs_k = as_const_int(valid_dim(r, 0));
  if (lhs_k && rhs_k && *rhs_k < *lhs_k)
    return cx.fail("rhs", "'rhs' valid rows (" + std::to_string(*rhs_k) + ") must cover 'lhs' valid K (" +
                              std::to_string(*lhs_k) + ")");
  auto rows = as_const_int(b->shape[0]);
  if (!rows || *rows != 1)
    return cx.fail("bias",
                   "'bias' must have shape [1, N] (one row, added to every row of the product), got " +
                       type_str(cx.arg("bias")->type));
  if (dims_differ(b->shape[1], r->shape[1]))
    return cx.fail("bias", "'bias' shape " + shape_str(b->shape) +
                               " must have the product's N = rhs dim 1 (" + shape_str(r->shape) + ")");
  auto bias_n = as_const_int(valid_dim(b, 1)), out_n = as_const_int(valid_dim(r, 1));
  if (bias_n && out_n && *bias_n < *out_n)
    return cx.fail("bias", "'bias' valid columns (" + std::to_string(*bias_n) +
                               ") must cover the product's valid N (" + std::to_string(*out_n) + ")");
  DType acc = l->dtype == DType::INT8 ? DType::INT32 : DType::FP32;
  if (b->dtype != acc)
    return cx.fail("bias", "'bias' must have the accumulator dtype " + dtype_str(acc) + " (for " +
                               dtype_str(l->dtype) + " inputs), got " + dtype_str(b->dtype));
  auto out = std::make_shared<TypeNode>(*tile_type({l->shape[0], r->shape[1]}, acc, Memory::Acc));
  if (!l->valid_shape.empty() || !r->valid_shape.empty())
    out->valid_shape = {valid_dim(l, 0), valid_dim(r, 1)};
  return out;
}

}  // namespace ptodist::ir
