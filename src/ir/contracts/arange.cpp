// The contract of pl.arange, PyPTO's integer ramp (ci).
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

// pl.arange / pl.tile.arange (PyPTO's ci), after DeduceTileCiType (src/ir/op/tile_ops/memory.cpp): a
// constant shape whose leading dims are 1 and whose last dim is not (pto.tci fills one row), INT16 or
// INT32, UINT16 or UINT32 (as PyPTO takes), a start of that dtype.
Type check_Arange(const ContractContext& cx) {
  const std::vector<Expr>* shape = need_int_list(cx, "shape", -1, "");
  if (!shape || !check_positive_dims(cx, "shape", *shape)) return nullptr;
  // Symbolic dims (factory parameters, module constants) are checked once specialize made them constant.
  if (shape->empty()) return cx.fail("shape", "'shape' must have at least one dim");
  for (size_t i = 0; i + 1 < shape->size(); ++i)
    if (auto d = as_const_int((*shape)[i]); d && *d != 1)
      return cx.fail("shape",
                     "'shape' must have leading dims of 1 (pto.tci fills one row), got " + shape_str(*shape));
  if (auto last = as_const_int(shape->back()); last && *last == 1)
    return cx.fail("shape", "'shape' must not end in 1 (pto.tci fills a row), got " + shape_str(*shape));
  DType dt = DType::INT32;
  if (!omitted(cx, "dtype")) {
    auto d = need_dtype(cx, "dtype");
    if (!d) return nullptr;
    dt = *d;
  }
  if (dt != DType::INT32 && dt != DType::INT16 && dt != DType::UINT32 && dt != DType::UINT16)
    return cx.fail("dtype",
                   "'dtype' must be pl.INT32, pl.INT16, pl.UINT32 or pl.UINT16, got " + dtype_str(dt));
  if (!need_int_scalar(cx, "start")) return nullptr;
  // A literal start takes the ramp's dtype; a scalar variable must have it already (PyPTO checks).
  const Expr& start = cx.arg("start");
  if (!as_const_int(start) && start->type->dtype != dt)
    return cx.fail("start", "'start' dtype " + dtype_str(start->type->dtype) + " must match 'dtype' " +
                                dtype_str(dt) + "; use pl.cast");
  Expr desc = cx.arg("descending");
  if (desc && !desc->isa<BoolImm>() && !desc->isa<NoneImm>())
    return cx.fail("descending", "'descending' must be True or False, got " + describe(desc));
  if (spelled_in(cx) == Namespace::Tile) return tile_type(*shape, dt, Memory::Vec);
  return tensor_type(*shape, dt);
}

}  // namespace ptodist::ir
