// Contracts of remote tile access: remote_load reads a peer's window into a tile, remote_store writes a
// tile (or, at tensor level, a GM tensor) into a peer's window.
#include "transfer_region.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// `offsets` of the target's rank, and the written/read extent `shape` in bounds of the target.
bool target_region(const ContractContext& cx, const TypeNode* target, const std::vector<Expr>& shape,
                   std::string_view extent_operand) {
  int rank = static_cast<int>(target->shape.size());
  if (static_cast<int>(shape.size()) != rank) {
    cx.fail(extent_operand, quoted(extent_operand) + " must have the rank of 'target' (" +
                                std::to_string(rank) + "), got " + shape_str(shape));
    return false;
  }
  const std::vector<Expr>* offsets = need_int_list(cx, "offsets", rank, "target");
  return offsets && check_in_bounds(cx, extent_operand, *offsets, shape, target->shape, "target");
}

Type remote_store(const ContractContext& cx, std::string_view value, const TypeNode* v) {
  const TypeNode* target = need_dist_tensor(cx, "target", "the peer's window is written through it");
  if (!target || !need_int_scalar(cx, "peer")) return nullptr;
  if (v->dtype != target->dtype)
    return cx.fail(value, quoted(value) + " dtype " + dtype_str(v->dtype) + " must match 'target' dtype " +
                              dtype_str(target->dtype));
  if (!target_region(cx, target, v->shape, value) || !check_atomic(cx, target->dtype)) return nullptr;
  return simple_type(TypeKind::None);
}

}  // namespace

Type check_RemoteLoad(const ContractContext& cx) {
  if (!need_default(cx, "valid_shape", "a partially valid remote tile")) return nullptr;
  const TypeNode* target = need_dist_tensor(cx, "target", "the peer's window is read through it");
  if (!target || !need_int_scalar(cx, "peer")) return nullptr;
  const std::vector<Expr>* shape =
      need_int_list(cx, "shape", static_cast<int>(target->shape.size()), "target");
  if (!shape || !check_positive_dims(cx, "shape", *shape) || !target_region(cx, target, *shape, "shape"))
    return nullptr;
  return tile_type(*shape, target->dtype, Memory::Vec);
}

Type check_RemoteStore(const ContractContext& cx) {
  const TypeNode* tile = need_tile(cx, "src_tile");
  if (!tile) return nullptr;
  if (tile->memory != Memory::Vec)
    return cx.fail("src_tile", "'src_tile' must be in pl.Mem.Vec (remote stores leave from UB), got " +
                                   type_str(cx.arg("src_tile")->type) +
                                   "; use pl.move(t, target_memory=pl.Mem.Vec)");
  return remote_store(cx, "src_tile", tile);
}

Type check_TensorRemoteStore(const ContractContext& cx) {
  const TypeNode* src = need_gm_tensor(cx, "src");
  if (!src) return nullptr;
  return remote_store(cx, "src", src);
}

}  // namespace ptodist::ir
