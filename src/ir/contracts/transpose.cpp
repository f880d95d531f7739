// Contracts of pl.transpose, after PyPTO's tile.transpose / tensor.transpose (src/ir/op/tile_ops/
// transform.cpp, tensor_ops/transform.cpp): two constant axes (negative ones count from the end), which
// must differ, swapped in the result's shape; a tile's optional tmp_tile is pto.ttrans's scratch, of the
// input's type (add-op-scratch gives one to a transpose without it); and of pl.tile.transpose_view, after
// its DeduceTileTransposeViewType: the trailing two dims of a tile swapped, in the tile's own memory.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// The axis in slot `name` as an index in [0, rank), or -1 after an error.
long long need_axis(const ContractContext& cx, std::string_view name, long long rank) {
  auto a = as_const_int(cx.arg(name));
  if (!a || cx.arg(name)->isa<BoolImm>() || *a < -rank || *a >= rank) {
    cx.fail(name, quoted(name) + " must be a constant axis in [" + std::to_string(-rank) + ", " +
                      std::to_string(rank - 1) + "], got " + describe(cx.arg(name)));
    return -1;
  }
  return *a < 0 ? *a + rank : *a;
}

// Whether two shapes have the same rank and agree in every dim both know (symbolic dims are not compared).
bool same_shape(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto x = as_const_int(a[i]), y = as_const_int(b[i]);
    if (x && y && *x != *y) return false;
  }
  return true;
}

}  // namespace

Type check_Transpose(const ContractContext& cx) {
  bool tensor = takes_tensors(cx, "input");
  const TypeNode* t = tensor ? need_tensor_like(cx, "input") : need_tile(cx, "input");
  if (!t) return nullptr;
  if (!tensor && t->memory != Memory::Vec)
    return cx.fail("input", "'input' must be a tile in pl.Mem.Vec, got " + type_str(cx.arg("input")->type) +
                                "; use pl.move(x, target_memory=pl.Mem.Vec)");
  const auto rank = static_cast<long long>(t->shape.size());
  if (rank < 2)
    return cx.fail("input", "'input' must have at least 2 dims, got " + type_str(cx.arg("input")->type));
  long long a = need_axis(cx, "axis1", rank);
  if (a < 0) return nullptr;
  long long b = need_axis(cx, "axis2", rank);
  if (b < 0) return nullptr;
  if (a == b)
    return cx.fail("axis2", "'axis1' and 'axis2' name the same axis (" + std::to_string(a) +
                                "); a transpose swaps two different axes");
  if (!omitted(cx, "tmp_tile")) {
    if (tensor)
      return cx.fail("tmp_tile", "'tmp_tile' is a tile scratch; a tensor-level transpose takes none");
    const TypeNode* tmp = need_tile(cx, "tmp_tile");
    if (!tmp) return nullptr;
    if (tmp->dtype != t->dtype || tmp->memory != t->memory || !same_shape(tmp->shape, t->shape))
      return cx.fail("tmp_tile", "'tmp_tile' must be a tile of the input's shape, dtype and memory (" +
                                     type_str(cx.arg("input")->type) + "), got " +
                                     type_str(cx.arg("tmp_tile")->type));
  }
  std::vector<Expr> shape = t->shape;
  std::swap(shape[static_cast<size_t>(a)], shape[static_cast<size_t>(b)]);
  return tensor ? tensor_type(shape, t->dtype) : tile_type(shape, t->dtype, Memory::Vec);
}

// The view keeps the operand's memory (PyPTO's result inherits the source's MemRef) and swaps the valid
// region with the dims.
Type check_TransposeView(const ContractContext& cx) {
  const TypeNode* t = need_tile(cx, "tile");
  if (!t) return nullptr;
  const size_t rank = t->shape.size();
  if (rank < 2)
    return cx.fail("tile", "'tile' must have at least 2 dims, got " + type_str(cx.arg("tile")->type));
  std::vector<Expr> shape = t->shape;
  std::swap(shape[rank - 2], shape[rank - 1]);
  auto out = std::make_shared<TypeNode>(*tile_type(shape, t->dtype, t->memory));
  out->valid_shape = t->valid_shape;
  if (!out->valid_shape.empty()) std::swap(out->valid_shape[rank - 2], out->valid_shape[rank - 1]);
  return out;
}

}  // namespace ptodist::ir
