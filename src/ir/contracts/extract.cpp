// The contract of pl.tile.extract, after PyPTO's DeduceTileExtractType (src/ir/op/tile_ops/transform.cpp):
// a [rows, cols] window of a 2-D tile at (index_row, index_col), repacked dense into `target_memory`
// (ISA TEXTRACT). The window must lie inside the source: TEXTRACT's bounds are hard. Dims named by
// module constants are symbolic until specialize, which checks the call again with constants (and
// plan-memory asks every tile shape to be static).
#include <algorithm>

#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The valid region of the window: where the source is valid under it. Wholly valid (empty) when the
// source is; per dim, the constant clamp of the source's valid extent to the window, or the window's
// extent where the source is valid over its whole dim; nullopt when neither is known.
std::optional<std::vector<Expr>> window_valid(const TypeNode* src, const std::vector<Expr>& offsets,
                                              const std::vector<Expr>& shape) {
  if (src->valid_shape.empty()) return std::vector<Expr>{};
  std::vector<Expr> valid;
  for (size_t i = 0; i < 2; ++i) {
    auto v = as_const_int(src->valid_shape[i]), o = as_const_int(offsets[i]), s = as_const_int(shape[i]);
    if (v && o && s)
      valid.push_back(const_dim(std::clamp(*v - *o, 0LL, *s)));
    else if (dim_equal(src->valid_shape[i], src->shape[i]))
      valid.push_back(shape[i]);
    else
      return std::nullopt;
  }
  return valid;
}

}  // namespace

Type check_Extract(const ContractContext& cx) {
  const TypeNode* src = need_tile(cx, "src");
  if (!src) return nullptr;
  if (src->shape.size() != 2)
    return cx.fail("src", "'src' must be a 2-D tile, got " + type_str(cx.arg("src")->type));
  if (!need_int_scalar(cx, "index_row") || !need_int_scalar(cx, "index_col")) return nullptr;
  const std::vector<Expr>* shape = need_int_list(cx, "shape", 2, "the 2-D window");
  if (!shape) return nullptr;
  if (!check_positive_dims(cx, "shape", *shape)) return nullptr;
  auto mem = need_memory(cx, "target_memory");
  if (!mem) return nullptr;
  const std::vector<Expr> offsets = {cx.arg("index_row"), cx.arg("index_col")};
  for (size_t i = 0; i < 2; ++i) {
    auto s = as_const_int((*shape)[i]), b = as_const_int(src->shape[i]);
    if (s && b && *s > *b)
      return cx.fail("shape", "'shape' dim " + std::to_string(i) + " (" + std::to_string(*s) +
                                  ") exceeds the source's (" + std::to_string(*b) + ")");
  }
  if (!check_in_bounds(cx, "shape", offsets, *shape, src->shape, "src")) return nullptr;
  auto valid = window_valid(src, offsets, *shape);
  if (!valid)
    return cx.fail("src",
                   "a window of a partially valid tile needs constant offsets and valid extent where the "
                   "source is not valid over the whole dim; got " +
                       type_str(cx.arg("src")->type));
  auto out = std::make_shared<TypeNode>(*tile_type(*shape, src->dtype, *mem));
  out->valid_shape = std::move(*valid);
  return out;
}

}  // namespace ptodist::ir
