// The contract of pl.reinterpret_view on tiles, after PyPTO's DeduceTileReinterpretViewType and its
// reinterpret_view_semantics: the tile's bytes read as another byte-addressable dtype. Without `shape`
// the contiguous (last) dim is scaled by the byte ratio (an FP32 [8, 16] is an INT16 [8, 32]); an
// explicit `shape` must hold the same bytes. A partially valid tile keeps its valid region, scaled the
// same way, and then takes no other shape.
#include <algorithm>

#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

bool byte_addressable(DType t) {
  switch (t) {
    case DType::INT8:
    case DType::INT16:
    case DType::INT32:
    case DType::INT64:
    case DType::UINT8:
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

// `dims` with the last dim scaled from `from`-byte to `to`-byte elements. A wider target must divide a
// constant dim (an error names `what`: "shape" or "valid_shape"); a symbolic dim (a module constant
// before specialize, which checks the call again) is scaled as an expression.
std::optional<std::vector<Expr>> scale_last(const ContractContext& cx, std::vector<Expr> dims, int from,
                                            int to, std::string_view what) {
  Expr& last = dims.back();
  auto n = as_const_int(last);
  if (!n) {
    last = from > to ? arith(BinaryOpKind::Mul, last, const_dim(from / to))
                     : arith(BinaryOpKind::FloorDiv, last, const_dim(to / from));
    return dims;
  }
  if (*n * from % to != 0) {
    cx.fail("dtype", std::string(what) + " dim " + std::to_string(dims.size() - 1) + " (" +
                         std::to_string(*n) + ") is not divisible by " + std::to_string(to / from) +
                         " for the wider target dtype");
    return std::nullopt;
  }
  last = const_dim(*n * from / to);
  return dims;
}

std::optional<long long> static_bytes(const std::vector<Expr>& shape, int elem_bytes) {
  auto dims = const_values(shape);
  if (!dims) return std::nullopt;
  long long n = elem_bytes;
  for (long long d : *dims) n *= d;
  return n;
}

}  // namespace

Type check_ReinterpretView(const ContractContext& cx) {
  if (takes_tensors(cx, "data"))
    return cx.fail("data",
                   "reinterpreting a GM tensor is not supported by ptodist yet; load it into a tile "
                   "and reinterpret the tile");
  const TypeNode* t = need_tile(cx, "data");
  if (!t) return nullptr;
  auto to = need_dtype(cx, "dtype");
  if (!to) return nullptr;
  for (auto [dt, slot] : {std::pair{t->dtype, "data"}, std::pair{*to, "dtype"}})
    if (!byte_addressable(dt))
      return cx.fail(slot, "dtype " + dtype_str(dt) +
                               " cannot be reinterpreted; supported are the 8 to 64-bit integers, pl.FP16, "
                               "pl.BF16 and pl.FP32 (ptodist has no pl.UINT64)");
  if (*to == t->dtype)
    return cx.fail("dtype", "'dtype' must differ from the tile's " + dtype_str(t->dtype) +
                                "; use pl.reshape for a shape-only change");
  const int from_bytes = dtype_bytes(t->dtype), to_bytes = dtype_bytes(*to);
  auto auto_shape = scale_last(cx, t->shape, from_bytes, to_bytes, "shape");
  if (!auto_shape) return nullptr;
  std::vector<Expr> shape = *auto_shape;
  bool explicit_other = false;
  if (!omitted(cx, "shape")) {
    const std::vector<Expr>* given = need_int_list(cx, "shape", -1, "");
    if (!given || !check_positive_dims(cx, "shape", *given)) return nullptr;
    auto want = static_bytes(t->shape, from_bytes), got = static_bytes(*given, to_bytes);
    if (want && got && *want != *got)
      return cx.fail("shape", "'shape' " + shape_str(*given) + " of " + dtype_str(*to) + " holds " +
                                  std::to_string(*got) + " bytes, the tile " + std::to_string(*want));
    explicit_other = !std::equal(given->begin(), given->end(), shape.begin(), shape.end(), dim_equal);
    shape = *given;
  }
  auto out = std::make_shared<TypeNode>(*tile_type(shape, *to, t->memory));
  if (!t->valid_shape.empty() && !std::equal(t->valid_shape.begin(), t->valid_shape.end(), t->shape.begin(),
                                             t->shape.end(), dim_equal)) {
    if (explicit_other)
      return cx.fail("shape", "a partially valid tile keeps its valid region only in the scaled shape " +
                                  shape_str(*auto_shape) + "; omit 'shape'");
    auto valid = scale_last(cx, t->valid_shape, from_bytes, to_bytes, "valid_shape");
    if (!valid) return nullptr;
    out->valid_shape = std::move(*valid);
  }
  return out;
}

}  // namespace ptodist::ir
