// Contracts of pl.spmd_submit (a kernel submitted on `core_num` cores, with its arguments checked like a
// call and dependencies on earlier submits), of pl.submit (the same on one block, with PyPTO's dump and
// scheduling hints), of pl.system.task_dummy (a task id joining others) and pl.system.task_invalid.
#include "../call_check.h"
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

Function submitted_kernel(const ContractContext& cx) {
  Expr k = cx.arg("kernel");
  const FuncRef* ref = k ? k->as<FuncRef>() : nullptr;
  Function fn = ref ? find_function(cx.scope.functions, ref->callee) : nullptr;
  if (!fn || (!is_kernel(fn->kind) && fn->kind != FunctionKind::Group)) {
    std::string got = fn ? "the " + std::string(function_kind_name(fn->kind)) + " function '" + fn->name + "'"
                         : describe(k);
    cx.fail(
        "kernel",
        "'kernel' must name a kernel function (InCore, AIC or AIV) or a Group such as self.my_kernel, got " +
            got);
    return nullptr;
  }
  return fn;
}

bool check_deps(const ContractContext& cx) {
  if (omitted(cx, "deps")) return true;
  const std::vector<Expr>* deps = as_list(cx.arg("deps"));
  if (!deps) {
    cx.fail("deps", "'deps' must be a list of pl.TaskId (the second result of earlier submits), got " +
                        describe(cx.arg("deps")));
    return false;
  }
  // A task id, None (PyPTO's invalid task id: no producer yet), or a whole array of them (PyPTO's
  // per-slot carrier: every slot, the invalid ones ordering nothing).
  for (const Expr& d : *deps) {
    if (d && (d->isa<NoneImm>() || (d->type && d->type->kind == TypeKind::TaskId))) continue;
    if (d && d->type && d->type->kind == TypeKind::Array && d->type->dtype == DType::TASK_ID) continue;
    cx.fail("deps",
            "'deps' must be a list of pl.TaskId (the second result of earlier submits) or arrays of them "
            "(pl.array.create(n, pl.TASK_ID)), but an element is " +
                describe(d));
    return false;
  }
  return true;
}

// The kernel of a submit with its arguments checked like a call's, or null after an error.
Function checked_kernel(const ContractContext& cx) {
  Function fn = submitted_kernel(cx);
  if (!fn) return nullptr;
  std::vector<BoundArg> args;
  for (const Expr& a : cx.call.varargs) args.push_back({a, a ? a->span : SourceSpan{}});
  if (!check_call_arguments(*fn, args, cx.call.op->spelling + ": kernel '" + fn->name + "'", cx.call.span,
                            cx.diags))
    return nullptr;
  return fn;
}

// pl.submit's dumps=[...]: tensors passed positionally to the kernel (PyPTO marks those bindings for
// its selective dump; ptodist dumps nothing, so the list is only checked).
bool check_dumps(const ContractContext& cx) {
  if (omitted(cx, "dumps")) return true;
  const std::vector<Expr>* dumps = as_list(cx.arg("dumps"));
  if (!dumps) {
    cx.fail("dumps",
            "'dumps' must be a list of tensors passed to the kernel, got " + describe(cx.arg("dumps")));
    return false;
  }
  for (const Expr& d : *dumps) {
    const auto* ref = d ? d->as<VarRef>() : nullptr;
    bool passed = false;
    for (const Expr& a : cx.call.varargs) {
      const auto* r = a ? a->as<VarRef>() : nullptr;
      passed |= ref && r && r->var == ref->var;
    }
    if (ref && passed && d->type && d->type->is_tensor_like()) continue;
    cx.fail("dumps",
            "'dumps' must list tensors passed positionally to the kernel, but an element is " + describe(d));
    return false;
  }
  return true;
}

}  // namespace

Type check_SpmdSubmit(const ContractContext& cx) {
  Function fn = checked_kernel(cx);
  if (!fn) return nullptr;
  if (!omitted(cx, "core_num")) {
    if (!need_int_scalar(cx, "core_num")) return nullptr;
    auto n = as_const_int(cx.arg("core_num"));
    if (n && *n <= 0) return cx.fail("core_num", "'core_num' must be positive, got " + std::to_string(*n));
  }
  if (!check_deps(cx)) return nullptr;
  return tuple_type({call_result_type(*fn), simple_type(TypeKind::TaskId)});
}

// allow_early_resolve is PyPTO's early-dispatch hint: it changes when consumers are staged, never what
// they compute, so ptodist takes it and schedules as before. A dispatch predicate would skip the task.
Type check_Submit(const ContractContext& cx) {
  Function fn = checked_kernel(cx);
  if (!fn || !check_deps(cx) || !check_dumps(cx)) return nullptr;
  Expr early = cx.arg("allow_early_resolve");
  if (early && !early->isa<BoolImm>() && !early->isa<NoneImm>())
    return cx.fail("allow_early_resolve",
                   "'allow_early_resolve' must be True or False, got " + describe(early));
  if (!need_default(cx, "predicate", "a dispatch predicate")) return nullptr;
  return tuple_type({call_result_type(*fn), simple_type(TypeKind::TaskId)});
}

Type check_TaskDummy(const ContractContext& cx) {
  if (omitted(cx, "deps"))
    return cx.fail("deps", "'deps' is required: the task ids it joins, e.g. deps=[tid] (deps=[] for none)");
  return check_deps(cx) ? simple_type(TypeKind::TaskId) : nullptr;
}

Type check_TaskInvalid(const ContractContext&) {
  return simple_type(TypeKind::TaskId);
}

}  // namespace ptodist::ir
