// Contracts of the axis reductions (reduce_ops.def), after PyPTO's DeduceTileRowReductionType /
// DeduceTileColReductionType (src/ir/op/tile_ops/reduction.cpp) and its unified dispatch
// (python/pypto/language/op/unified_ops.py: a tile needs its tmp_tile, a tensor takes none).
#include "common.h"
#include "ptodist/ir/printer.h"
#include "ptodist/ir/reduce_ops.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

const TypeNode* need_input(const ContractContext& cx, bool tensor) {
  const TypeNode* t = tensor ? need_tensor_like(cx, "input") : need_tile(cx, "input");
  if (!t) return nullptr;
  if (!tensor && t->memory != Memory::Vec) {
    cx.fail("input", "'input' must be a tile in pl.Mem.Vec, got " + type_str(cx.arg("input")->type) +
                         "; use pl.move(x, target_memory=pl.Mem.Vec)");
    return nullptr;
  }
  if (t->shape.size() != 2) {
    cx.fail("input", "'input' must be 2-D, got " + type_str(cx.arg("input")->type));
    return nullptr;
  }
  if (t->dtype == DType::BOOL) {
    cx.fail("input", "'input' must have a numeric dtype, got pl.BOOL");
    return nullptr;
  }
  return t;
}

bool check_dtype(const ContractContext& cx, const ReduceOpInfo& row, DType t) {
  // PyPTO's tile.row_min (TROWMIN) takes these dtypes only.
  bool row_min_dtype = t == DType::INT16 || t == DType::INT32 || t == DType::FP16 || t == DType::FP32;
  if (row.id != OpId::RowMin || row_min_dtype) return true;
  cx.fail("input", "'input' must have dtype pl.INT16, pl.INT32, pl.FP16 or pl.FP32, got " + dtype_str(t));
  return false;
}

bool dim_smaller(const Expr& a, const Expr& b) {
  auto x = as_const_int(a), y = as_const_int(b);
  return x && y && *x < *y;
}

bool dim_differs(const Expr& a, const Expr& b) {
  auto x = as_const_int(a), y = as_const_int(b);
  return x && y && *x != *y;
}

// tmp_tile on a tile input, as the row's rule asks.
bool check_tmp(const ContractContext& cx, const ReduceOpInfo& row, const TypeNode& in) {
  bool required = row.tmp == ReduceTmp::kAtLeast || row.tmp == ReduceTmp::kExact;
  if (omitted(cx, "tmp_tile")) {
    if (!required) return true;
    cx.fail("tmp_tile",
            "'tmp_tile' is required for a tile input: a scratch tile of the input's " +
                std::string(row.tmp == ReduceTmp::kExact ? "shape" : "dtype, at least its shape,") +
                " and dtype (" + type_str(cx.arg("input")->type) + ")");
    return false;
  }
  const TypeNode* t = need_tile(cx, "tmp_tile");
  if (!t) return false;
  bool fits = t->dtype == in.dtype && t->shape.size() == in.shape.size();
  for (size_t i = 0; fits && i < t->shape.size(); ++i)
    fits = row.tmp == ReduceTmp::kAtLeast ? !dim_smaller(t->shape[i], in.shape[i])
                                          : !dim_differs(t->shape[i], in.shape[i]);
  if (fits) return true;
  cx.fail("tmp_tile",
          "'tmp_tile' must have the input's dtype and " +
              std::string(row.tmp == ReduceTmp::kAtLeast ? "rank and be at least as large in every dim ("
                                                         : "shape (") +
              type_str(cx.arg("input")->type) + "), got " + type_str(cx.arg("tmp_tile")->type));
  return false;
}

Type reduce(const ContractContext& cx) {
  const ReduceOpInfo& row = *reduce_op_info(cx.call.op->id);
  bool tensor = takes_tensors(cx, "input");
  const TypeNode* t = need_input(cx, tensor);
  if (!t || !check_dtype(cx, row, t->dtype)) return nullptr;
  std::vector<Expr> shape = row.axis == ReduceAxis::kRow ? std::vector<Expr>{t->shape[0], const_dim(1)}
                                                         : std::vector<Expr>{const_dim(1), t->shape[1]};
  bool index = row.kind == ReduceKind::kArgMax || row.kind == ReduceKind::kArgMin;
  DType out = index ? DType::INT32 : t->dtype;
  if (tensor) {
    if (!omitted(cx, "tmp_tile"))
      return cx.fail("tmp_tile", "'tmp_tile' is a tile scratch; a tensor-level call takes none");
    return tensor_type(shape, out);
  }
  if (row.tmp == ReduceTmp::kNone && !omitted(cx, "tmp_tile"))
    return cx.fail("tmp_tile", "takes no 'tmp_tile'");
  if (!check_tmp(cx, row, *t)) return nullptr;
  return tile_type(shape, out, Memory::Vec);
}

}  // namespace

#define PTODIST_REDUCE(Id, name, sig, tile_sig, axis, kind, tmp, pto) \
  Type check_##Id(const ContractContext& cx) {                        \
    return reduce(cx);                                                \
  }
#include "ptodist/ir/reduce_ops.def"
#undef PTODIST_REDUCE

}  // namespace ptodist::ir
