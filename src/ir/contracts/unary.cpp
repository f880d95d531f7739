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
  }
  return false;
}

// high_precision: a bool; PTOAS's high-precision template exists for FP16 and FP32 only, and a tile's
// rsqrt selects it by a scratch tile rather than this flag (PyPTO rejects the flag on a tile).
bool check_high_precision(const ContractContext& cx, const UnaryOpInfo& row, DType dt, bool tensor) {
  if (op_info(row.id).param_index("high_precision") < 0 || omitted(cx, "high_precision")) return true;
  auto b = cx.arg("high_precision")->as<BoolImm>();
  if (!b) {
    cx.fail("high_precision",
            "'high_precision' must be True or False, got " + describe(cx.arg("high_precision")));
    return false;
  }
  if (!b->value) return true;
  if (row.id == OpId::Rsqrt && !tensor) {
    cx.fail("high_precision",
            "'high_precision=True' is for tensors; on a tile the high-precision rsqrt "
            "takes a scratch tile (pl.tile.rsqrt(tile, tmp)), which ptodist does not "
            "support yet");
    return false;
  }
  if (dt == DType::FP16 || dt == DType::FP32) return true;
  cx.fail("high_precision",
          "'high_precision=True' needs an FP16 or FP32 operand (PTOAS has no high-precision " +
              std::string(row.name) + " for " + dtype_str(dt) + ")");
  return false;
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
  if (!check_dtype(cx, row, operand, t->dtype, tensor) || !check_high_precision(cx, row, t->dtype, tensor))
    return nullptr;
  if (!tensor) return cx.arg(operand)->type;
  bool promote = row.dtypes == UnaryDTypes::kFloatResult && !dtype_is_float(t->dtype);
  return tensor_type(t->shape, promote ? DType::FP32 : t->dtype);
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
