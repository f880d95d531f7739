// Contract of pl.expand_clone / pl.tensor.expand_clone, after PyPTO's DeduceTensorExpandCloneType
// (src/ir/op/tensor_ops/broadcast.cpp): two rank-3 GM tensors; each dim of `src` equals `target`'s or is
// 1, and at most one is broadcast. The result is `target`, which the op writes.
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

Type check_ExpandClone(const ContractContext& cx) {
  const TypeNode* s = need_tensor_like(cx, "src");
  if (!s) return nullptr;
  const TypeNode* t = need_tensor_like(cx, "target");
  if (!t) return nullptr;
  if (s->shape.size() != 3)
    return cx.fail("src", "'src' must be a rank-3 tensor, got " + type_str(cx.arg("src")->type));
  if (t->shape.size() != 3)
    return cx.fail("target",
                   "'target' must be a rank-3 tensor like 'src', got " + type_str(cx.arg("target")->type));
  if (s->dtype != t->dtype)
    return cx.fail("target", "'target' dtype " + dtype_str(t->dtype) + " must match 'src' dtype " +
                                 dtype_str(s->dtype) + " (ptodist does not promote here); use pl.cast");
  int broadcast = 0;
  for (size_t i = 0; i < 3; ++i) {
    // Symbolic dims are compared at run time (the executor checks the region it copies).
    auto a = as_const_int(s->shape[i]), b = as_const_int(t->shape[i]);
    if (!a || !b || *a == *b) continue;
    if (*a != 1)
      return cx.fail("src", "'src' " + shape_str(s->shape) + " cannot be expanded to " + shape_str(t->shape) +
                                " at dim " + std::to_string(i) + ": only a dim of 1 is broadcast");
    ++broadcast;
  }
  if (broadcast > 1)
    return cx.fail("src", "'src' " + shape_str(s->shape) + " is broadcast in " + std::to_string(broadcast) +
                              " dims to " + shape_str(t->shape) + "; pl.expand_clone broadcasts at most one");
  return cx.arg("target")->type;
}

}  // namespace ptodist::ir
