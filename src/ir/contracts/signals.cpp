// Contracts of the signal ops: notify, wait, fence and cache invalidation.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

// A signal is an INT32 cell of a window; its offsets name one cell.
const std::vector<Expr>* signal_cell(const ContractContext& cx, std::string_view signal) {
  const TypeNode* t = need_signal(cx, signal);
  if (!t) return nullptr;
  const std::vector<Expr>* offsets = need_int_list(cx, "offsets", static_cast<int>(t->shape.size()), signal);
  if (!offsets) return nullptr;
  std::vector<Expr> ones(offsets->size(), const_dim(1));
  if (!check_in_bounds(cx, "offsets", *offsets, ones, t->shape, signal)) return nullptr;
  return offsets;
}

}  // namespace

Type check_Notify(const ContractContext& cx) {
  if (!signal_cell(cx, "target") || !need_int_scalar(cx, "peer") || !need_int_scalar(cx, "value"))
    return nullptr;
  if (!omitted(cx, "op") && !need_enum(cx, "op", EnumKind::NotifyOp, {"AtomicAdd", "Set"}, "pld.NotifyOp."))
    return nullptr;
  return simple_type(TypeKind::None);
}

Type check_Wait(const ContractContext& cx) {
  if (!signal_cell(cx, "signal") || !need_int_scalar(cx, "expected")) return nullptr;
  if (!omitted(cx, "cmp") && !need_enum(cx, "cmp", EnumKind::WaitCmp, {"Eq", "Ge"}, "pld.WaitCmp."))
    return nullptr;
  return simple_type(TypeKind::None);
}

// PyPTO's defer_wait: an INT32 cell, an integer threshold in [0, INT32_MAX] (the runtime compares
// unsigned, so a negative threshold would never mean what it says), and only cmp=pld.WaitCmp.Ge.
Type check_DeferWait(const ContractContext& cx) {
  if (!signal_cell(cx, "signal") || !need_int_scalar(cx, "expected")) return nullptr;
  if (auto v = as_const_int(cx.arg("expected")); v && (*v < 0 || *v > 2147483647))
    return cx.fail("expected",
                   "'expected' must be in [0, INT32_MAX] (deferred conditions are monotonic counters), got " +
                       std::to_string(*v));
  if (!need_enum(cx, "cmp", EnumKind::WaitCmp, {"Ge"}, "pld.WaitCmp.")) return nullptr;
  return simple_type(TypeKind::None);
}

Type check_Fence(const ContractContext&) {
  return simple_type(TypeKind::None);
}

// PyPTO's cacheinvalid(tensor=None, shapes=None, offsets=None): no tensor invalidates all of GM; a
// region needs both `shapes` and `offsets`.
Type check_CacheInvalid(const ContractContext& cx) {
  bool has_offsets = !omitted(cx, "offsets"), has_shapes = !omitted(cx, "shapes");
  if (omitted(cx, "tensor")) {
    if (has_offsets || has_shapes)
      return cx.fail(has_offsets ? "offsets" : "shapes", "a region needs 'tensor'");
    return simple_type(TypeKind::None);
  }
  const TypeNode* t = need_tensor_like(cx, "tensor");
  if (!t) return nullptr;
  if (has_offsets != has_shapes)
    return cx.fail(has_offsets ? "offsets" : "shapes",
                   "'shapes' and 'offsets' must be given together or not at all");
  if (!has_offsets) return simple_type(TypeKind::None);
  int rank = static_cast<int>(t->shape.size());
  const std::vector<Expr>* shapes = need_int_list(cx, "shapes", rank, "tensor");
  const std::vector<Expr>* offsets = shapes ? need_int_list(cx, "offsets", rank, "tensor") : nullptr;
  if (!offsets || !check_positive_dims(cx, "shapes", *shapes) ||
      !check_in_bounds(cx, "shapes", *offsets, *shapes, t->shape, "tensor"))
    return nullptr;
  return simple_type(TypeKind::None);
}

}  // namespace ptodist::ir
