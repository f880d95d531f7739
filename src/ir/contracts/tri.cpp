// The contract of pl.tri / pl.tile.tri, PyPTO's triangular mask (pto.ttri), after its DeduceTileTriType
// (src/ir/op/tile_ops/memory.cpp): an INT32 diagonal, a 2-D shape, an optional valid region inside it,
// one of nine dtypes (INT32 when omitted); a Vec tile.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

bool tri_dtype(DType t) {
  switch (t) {
    case DType::INT8:
    case DType::UINT8:
    case DType::INT16:
    case DType::INT32:
    case DType::UINT16:
    case DType::UINT32:
    case DType::FP16:
    case DType::BF16:
    case DType::FP32:
      return true;
    default:
      return false;
  }
}

// A list of 2 dims: `shape` each > 0; `valid_shape` each in (0, the shape's dim]. Symbolic dims
// (factory parameters) are checked once specialize made them constant.
const std::vector<Expr>* need_tri_dims(const ContractContext& cx, std::string_view name,
                                       const std::vector<Expr>* bounds) {
  const std::vector<Expr>* dims = need_int_list(cx, name, 2, bounds ? "shape" : "");
  if (!dims) return nullptr;
  for (size_t i = 0; i < 2; ++i) {
    auto v = as_const_int((*dims)[i]);
    if (!v) continue;
    auto bound = bounds ? as_const_int((*bounds)[i]) : std::nullopt;
    if (*v <= 0 || (bound && *v > *bound)) {
      cx.fail(name, quoted(name) + " dim " + std::to_string(i) + " must be " +
                        (bound ? "in [1, " + std::to_string(*bound) + "] (the shape's dim)" : "positive") +
                        ", got " + std::to_string(*v));
      return nullptr;
    }
  }
  return dims;
}

}  // namespace

Type check_Tri(const ContractContext& cx) {
  // A literal diagonal takes INT32, as PyPTO's Python hands an int over; a scalar variable must be one.
  const Expr& diagonal = cx.arg("diagonal");
  if (!need_int_scalar(cx, "diagonal")) return nullptr;
  if (!as_const_int(diagonal) && diagonal->type->dtype != DType::INT32)
    return cx.fail("diagonal",
                   "'diagonal' must be a pl.INT32 scalar, got " + type_str(diagonal->type) + "; use pl.cast");
  const std::vector<Expr>* shape = need_tri_dims(cx, "shape", nullptr);
  if (!shape) return nullptr;
  const std::vector<Expr>* valid =
      omitted(cx, "valid_shape") ? nullptr : need_tri_dims(cx, "valid_shape", shape);
  if (!omitted(cx, "valid_shape") && !valid) return nullptr;
  DType dt = DType::INT32;
  if (!omitted(cx, "dtype")) {
    auto d = need_dtype(cx, "dtype");
    if (!d) return nullptr;
    dt = *d;
  }
  if (!tri_dtype(dt))
    return cx.fail("dtype",
                   "'dtype' must be one of pl.INT8, pl.UINT8, pl.INT16, pl.INT32, pl.UINT16, pl.UINT32, "
                   "pl.FP16, pl.BF16, pl.FP32, got " +
                       dtype_str(dt));
  Expr upper = cx.arg("upper");
  if (upper && !upper->isa<BoolImm>() && !upper->isa<NoneImm>())
    return cx.fail("upper", "'upper' must be True or False, got " + describe(upper));
  auto out = std::make_shared<TypeNode>(*tile_type(*shape, dt, Memory::Vec));
  if (valid && const_values(*valid) != const_values(*shape)) out->valid_shape = *valid;
  return out;
}

}  // namespace ptodist::ir
