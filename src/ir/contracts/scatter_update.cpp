// The contract of pl.scatter_update (pl.tile.scatter_update, pl.tensor.scatter_update), after PyPTO's
// DeduceTileScatterUpdateType / DeduceTensorScatterUpdateType (src/ir/op/tile_ops/transform.cpp,
// tensor_ops/scatter_update.cpp): `input` 2-D [rows, d] or 4-D [blocks, block_size, 1, d], `index` a 2-D
// [b, s] integer operand, `src` of input's rank and dtype; the result has input's type. Rows are
// counted over all dims but the last, so a 4-D src's [b, s, 1, d] is b*s rows of d.
#include "common.h"
#include "ptodist/ir/printer.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The operand `name` as a tile (tile_form) or a GM tensor.
const TypeNode* need_operand(const ContractContext& cx, std::string_view name, bool tile_form) {
  return tile_form ? need_tile(cx, name) : need_tensor_like(cx, name);
}

bool is_int(DType t) {
  return t == DType::INT8 || t == DType::INT16 || t == DType::INT32 || t == DType::INT64 ||
         t == DType::UINT8 || t == DType::UINT16 || t == DType::UINT32;
}

}  // namespace

Type check_ScatterUpdate(const ContractContext& cx) {
  const bool tile_form = !takes_tensors(cx, "input");
  const TypeNode* in = need_operand(cx, "input", tile_form);
  if (!in) return nullptr;
  if (in->shape.size() != 2 && in->shape.size() != 4)
    return cx.fail("input", "'input' must be 2-D [rows, d] or 4-D [blocks, block_size, 1, d], got " +
                                type_str(cx.arg("input")->type));
  auto dim = omitted(cx, "dim") ? std::optional<long long>(-2) : as_const_int(cx.arg("dim"));
  if (!dim || *dim != -2)
    return cx.fail("dim", "'dim' must be -2 (whole rows are replaced; the only dim PyPTO supports), got " +
                              print_expr(cx.arg("dim")));
  if (omitted(cx, "index") || omitted(cx, "src"))
    return cx.fail(omitted(cx, "index") ? "index" : "src",
                   "needs 'index' and 'src': write scatter_update(input, dim, index, src)");
  const TypeNode* idx = need_operand(cx, "index", tile_form);
  if (!idx) return nullptr;
  if (idx->shape.size() != 2 || !is_int(idx->dtype))
    return cx.fail("index", "'index' must be a 2-D [b, s] integer " +
                                std::string(tile_form ? "tile" : "tensor") + ", got " +
                                type_str(cx.arg("index")->type));
  const TypeNode* src = need_operand(cx, "src", tile_form);
  if (!src) return nullptr;
  if (src->shape.size() != in->shape.size())
    return cx.fail("src", "'src' must have the input's rank (" + std::to_string(in->shape.size()) +
                              "), got " + type_str(cx.arg("src")->type));
  if (src->dtype != in->dtype)
    return cx.fail(
        "src", "'src' dtype " + dtype_str(src->dtype) + " must match 'input' dtype " + dtype_str(in->dtype));
  if (dims_differ(src->shape.back(), in->shape.back()))
    return cx.fail("src", "'src' rows must have the input's " + print_expr(in->shape.back()) +
                              " elements (the last dim), got " + type_str(cx.arg("src")->type));
  if (in->shape.size() == 4 &&
      (dims_differ(in->shape[2], const_dim(1)) || dims_differ(src->shape[2], const_dim(1))))
    return cx.fail(dims_differ(in->shape[2], const_dim(1)) ? "input" : "src",
                   "a 4-D operand must be [blocks, block_size, 1, d]");
  return tile_form ? tile_type(in->shape, in->dtype, in->memory) : tensor_type(in->shape, in->dtype);
}

}  // namespace ptodist::ir
