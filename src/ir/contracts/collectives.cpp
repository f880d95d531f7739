// Contracts of the collectives (lowered by lower-collectives into put/notify/wait): operand kinds,
// dtypes and the shape relations that hold whatever the rank count.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

bool same_dtype(const ContractContext& cx, std::string_view a, const TypeNode* ta, std::string_view b,
                const TypeNode* tb) {
  if (ta->dtype == tb->dtype) return true;
  cx.fail(b, quoted(b) + " dtype " + dtype_str(tb->dtype) + " must match " + quoted(a) + " dtype " +
                 dtype_str(ta->dtype));
  return false;
}

bool dims_equal_where_const(const std::vector<Expr>& a, size_t a_from, const std::vector<Expr>& b,
                            size_t b_from) {
  if (a.size() - a_from != b.size() - b_from) return false;
  for (size_t i = 0; a_from + i < a.size(); ++i) {
    auto x = as_const_int(a[a_from + i]), y = as_const_int(b[b_from + i]);
    if (x && y && *x != *y) return false;
  }
  return true;
}

// A reduction adds elements, so only the dtypes atomic add supports.
bool reducible(const ContractContext& cx, std::string_view name, const TypeNode* t) {
  if (dtype_is_float(t->dtype) || t->dtype == DType::INT32) return true;
  cx.fail(name, quoted(name) + " must have dtype pl.FP32, pl.FP16, pl.BF16 or pl.INT32 to be reduced, got " +
                    dtype_str(t->dtype));
  return false;
}

}  // namespace

Type check_Barrier(const ContractContext& cx) {
  return need_signal(cx, "signal") ? simple_type(TypeKind::None) : nullptr;
}

Type check_Broadcast(const ContractContext& cx) {
  if (!need_dist_tensor(cx, "buf", "every rank's copy is written") || !need_signal(cx, "signal") ||
      !need_int_scalar(cx, "root"))
    return nullptr;
  return simple_type(TypeKind::None);
}

// dst gathers one src per rank: dst is [nranks, *src.shape], or src's shape with dim 0 nranks times longer.
Type check_AllGather(const ContractContext& cx) {
  const TypeNode* dst = need_dist_tensor(cx, "dst", "every rank's slice is written into the peers' copies");
  const TypeNode* src = dst ? need_tensor_like(cx, "src") : nullptr;
  if (!src || !need_signal(cx, "signal") || !same_dtype(cx, "dst", dst, "src", src)) return nullptr;
  bool stacked =
      dst->shape.size() == src->shape.size() + 1 && dims_equal_where_const(dst->shape, 1, src->shape, 0);
  bool concatenated = dst->shape.size() == src->shape.size() && !src->shape.empty() &&
                      dims_equal_where_const(dst->shape, 1, src->shape, 1);
  if (concatenated) {
    auto d = as_const_int(dst->shape[0]), s = as_const_int(src->shape[0]);
    concatenated = !d || !s || (*s > 0 && *d % *s == 0);
  }
  if (!stacked && !concatenated)
    return cx.fail(
        "dst", "'dst' " + shape_str(dst->shape) + " cannot hold one 'src' " + shape_str(src->shape) +
                   " per rank: it must be [nranks, *src.shape] or src's shape with dim 0 scaled by nranks");
  return simple_type(TypeKind::None);
}

Type check_ReduceScatter(const ContractContext& cx) {
  const TypeNode* dst = need_tensor_like(cx, "dst");
  const TypeNode* src = dst ? need_tensor_like(cx, "src") : nullptr;
  const TypeNode* scratch =
      src ? need_dist_tensor(cx, "scratch", "peers write their partial sums into it") : nullptr;
  if (!scratch || !need_signal(cx, "signal")) return nullptr;
  if (!same_dtype(cx, "dst", dst, "src", src) || !same_dtype(cx, "src", src, "scratch", scratch) ||
      !reducible(cx, "src", src))
    return nullptr;
  return simple_type(TypeKind::None);
}

Type check_AllReduce(const ContractContext& cx) {
  const TypeNode* buf = need_tensor_like(cx, "buf");
  const TypeNode* scratch =
      buf ? need_dist_tensor(cx, "scratch", "peers write their partial sums into it") : nullptr;
  if (!scratch || !need_signal(cx, "signal")) return nullptr;
  if (!same_dtype(cx, "buf", buf, "scratch", scratch) || !reducible(cx, "buf", buf)) return nullptr;
  return simple_type(TypeKind::None);
}

Type check_AllToAll(const ContractContext& cx) {
  const TypeNode* dst = need_dist_tensor(cx, "dst", "every rank writes its block into the peers' copies");
  const TypeNode* src = dst ? need_tensor_like(cx, "src") : nullptr;
  if (!src || !need_signal(cx, "signal") || !same_dtype(cx, "dst", dst, "src", src)) return nullptr;
  if (!dims_equal_where_const(dst->shape, 0, src->shape, 0))
    return cx.fail(
        "dst", "'dst' shape " + shape_str(dst->shape) + " must equal 'src' shape " + shape_str(src->shape));
  return simple_type(TypeKind::None);
}

}  // namespace ptodist::ir
