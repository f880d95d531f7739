// Contracts of the elementwise unary family (unary_ops.def): one rule for the whole table, after
// PyPTO's DeduceTileUnaryType and the tensor rules of src/ir/op/tensor_ops/unary.cpp.
#include "common.h"
#include "ptodist/ir/unary_ops.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The dtype rule of the row; returns false after reporting.
bool check_dtype(const ContractContext& cx, const UnaryOpInfo& row, std::string_view operand, DType dt,
                 bool tensor) {
  switch (row.dtypes) {
    case UnaryDTypes::kAnyNumeric:
      if (dt != DType::BOOL) return true;
      cx.fail(operand, quoted(operand) + " must have a numeric dtype, got pl.BOOL");
      return false;
    case UnaryDTypes::kFloatResult:
      if (dtype_is_float(dt) || tensor) return true;  // a tensor of integers gives FP32
      cx.fail(operand, quoted(operand) +
                           " must be a tile of a float dtype (pl.FP32, pl.FP16 or pl.BF16), got " +
                           dtype_str(dt) + "; use pl.cast first");
      return false;
    case UnaryDTypes::kFp16Fp32:
      if (dt == DType::FP16 || dt == DType::FP32) return true;
      cx.fail(operand, quoted(operand) + " must have dtype pl.FP16 or pl.FP32, got " + dtype_str(dt));
      return false;
    case UnaryDTypes::kFp32Only:
      if (dt == DType::FP32) return true;
      cx.fail(operand, quoted(operand) + " must have dtype pl.FP32 (" + std::string(row.name) +
                           " is FP32-only), got " + dtype_str(dt) + "; use pl.cast(x, pl.FP32) first");
      return false;
    case UnaryDTypes::kInt16Only:
      if (dt == DType::INT16 || dt == DType::UINT16) return true;
      cx.fail(operand, quoted(operand) + " must have dtype pl.INT16 or pl.UINT16, got " + dtype_str(dt));
      return false;
  }
  return false;
}

// high_precision: a bool; PTOAS's high-precision template exists for FP16 and FP32 only. PyPTO takes
// rsqrt's flag on tensors only (its tile form takes a scratch tile); ptodist takes it on a tile too,
// because a tile here is often a tensor there (ptodist's pl.full is a tile, PyPTO's a tensor), and
// add-op-scratch gives the tile form its scratch as PyPTO's ConvertTensorToTileOps does.
bool check_high_precision(const ContractContext& cx, const UnaryOpInfo& row, DType dt) {
  if (op_info(row.id).param_index("high_precision") < 0 || omitted(cx, "high_precision")) return true;
  auto b = cx.arg("high_precision")->as<BoolImm>();
  if (!b) {
    cx.fail("high_precision",
            "'high_precision' must be True or False, got " + describe(cx.arg("high_precision")));
    return false;
  }
  if (!b->value) return true;
  if (dt == DType::FP16 || dt == DType::FP32) return true;
  cx.fail("high_precision",
          "'high_precision=True' needs an FP16 or FP32 operand (PTOAS has no high-precision " +
              std::string(row.name) + " for " + dtype_str(dt) + ")");
  return false;
}

// pl.tile.rsqrt(tile, tmp): the high-precision form's scratch, a Vec tile of the operand's dtype and
// shape (PyPTO's DeduceTileRsqrtType). Only that spelling takes it: pl.rsqrt and pl.tensor.rsqrt ask for
// the form with high_precision=True, and the scratch is allocated for them.
bool check_scratch(const ContractContext& cx, const TypeNode* t) {
  if (op_info(cx.call.op->id).param_index("tmp") < 0 || omitted(cx, "tmp")) return true;
  if (cx.call.op->spelling != "pl.tile.rsqrt") {
    cx.fail("tmp",
            "'tmp' is the scratch tile of pl.tile.rsqrt(tile, tmp); here ask for the "
            "high-precision form with high_precision=True");
    return false;
  }
  const TypeNode* tmp = need_tile(cx, "tmp");
  if (!tmp) return false;
  if (tmp->memory != Memory::Vec || tmp->dtype != t->dtype) {
    cx.fail("tmp", "'tmp' must be a tile in pl.Mem.Vec of dtype " + dtype_str(t->dtype) + ", got " +
                       type_str(cx.arg("tmp")->type));
    return false;
  }
  auto a = const_values(t->shape), b = const_values(tmp->shape);
  if (tmp->shape.size() != t->shape.size() || (a && b && *a != *b)) {
    cx.fail("tmp",
            "'tmp' shape " + shape_str(tmp->shape) + " must match 'tile' shape " + shape_str(t->shape));
    return false;
  }
  return true;
}

Type unary(const ContractContext& cx) {
  const UnaryOpInfo& row = *unary_op_info(cx.call.op->id);
  const std::string operand = op_info(row.id).params[0].name;
  bool tensor = row.tensor_form && takes_tensors(cx, operand);
  const TypeNode* t = tensor ? need_tensor_like(cx, operand) : need_tile(cx, operand);
  if (!t) return nullptr;
  if (!tensor && t->memory != Memory::Vec)
    return cx.fail(operand, quoted(operand) + " must be a tile in pl.Mem.Vec, got " +
                                type_str(cx.arg(operand)->type) +
                                "; use pl.move(x, target_memory=pl.Mem.Vec)");
  if (!check_dtype(cx, row, operand, t->dtype, tensor) || !check_high_precision(cx, row, t->dtype) ||
      !check_scratch(cx, t))
    return nullptr;
  if (!tensor) return cx.arg(operand)->type;
  bool promote = row.dtypes == UnaryDTypes::kFloatResult && !dtype_is_float(t->dtype);
  return tensor_keeping_valid(t->shape, promote ? DType::FP32 : t->dtype, t->valid_shape);
}

}  // namespace

#define PTODIST_UNARY(Id, name, sig, tile_sig, dtypes, pto, in_place) \
  Type check_##Id(const ContractContext& cx) {                        \
    return unary(cx);                                                 \
  }
#define PTODIST_UNARY_TILE PTODIST_UNARY
#include "ptodist/ir/unary_ops.def"
#undef PTODIST_UNARY_TILE
#undef PTODIST_UNARY

}  // namespace ptodist::ir
