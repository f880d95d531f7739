// Expression checks of the verifier: uses of variables, op contracts re-run through the op table, and
// calls of program functions against their callees.
#include "call_check.h"
#include "ptodist/ir/contracts.h"
#include "ptodist/ir/op_table.h"
#include "verifier_internal.h"

namespace ptodist::ir::detail {

void FunctionVerifier::check_expr(const Expr& e, const DefSet& defs) {
  if (!e) return;
  switch (e->kind) {
    case ExprKind::VarRef:
      check_use(*e->as<VarRef>(), defs);
      return;
    case ExprKind::Unary:
      check_expr(e->as<Unary>()->operand, defs);
      return;
    case ExprKind::Binary:
      check_expr(e->as<Binary>()->lhs, defs);
      check_expr(e->as<Binary>()->rhs, defs);
      return;
    case ExprKind::Compare:
      check_expr(e->as<Compare>()->lhs, defs);
      check_expr(e->as<Compare>()->rhs, defs);
      return;
    case ExprKind::BoolOp:
      check_expr(e->as<BoolOp>()->lhs, defs);
      check_expr(e->as<BoolOp>()->rhs, defs);
      return;
    case ExprKind::IfExp: {
      auto x = e->as<IfExp>();
      check_expr(x->cond, defs);
      check_expr(x->then_value, defs);
      check_expr(x->else_value, defs);
      return;
    }
    case ExprKind::List:
      for (const Expr& c : e->as<List>()->elements) check_expr(c, defs);
      return;
    case ExprKind::Tuple:
      for (const Expr& c : e->as<Tuple>()->elements) check_expr(c, defs);
      return;
    case ExprKind::Subscript:
      check_expr(e->as<Subscript>()->value, defs);
      for (const Expr& c : e->as<Subscript>()->indices) check_expr(c, defs);
      return;
    case ExprKind::OpCall: {
      auto c = e->as<OpCall>();
      for (const Expr& a : c->args) check_expr(a, defs);
      for (const Expr& a : c->varargs) check_expr(a, defs);
      check_op_call(*c);
      return;
    }
    case ExprKind::FuncCall: {
      auto c = e->as<FuncCall>();
      for (const Expr& a : c->args) check_expr(a, defs);
      check_expr(c->device, defs);
      check_func_call(*c);
      return;
    }
    case ExprKind::FuncRef:
      check_callee_exists(e->as<FuncRef>()->callee, e->span);
      return;
    default:
      return;
  }
}

void FunctionVerifier::check_use(const VarRef& ref, const DefSet& defs) {
  const VarNode* v = ref.var.get();
  if (!v) {
    diags_.error(where(ref.span), "reference to a missing variable in '" + fn_.name + "'");
    return;
  }
  if (reported_.count(v)) return;
  if (!locals_.count(v)) {
    // Not defined in this function: a module or factory constant, unless another function owns it.
    auto owner = owners_.find(v);
    if (owner == owners_.end()) return;
    reported_.insert(v);
    diags_.error(where(ref.span), "'" + v->name + "' is a variable of function '" + owner->second +
                                      "' and is not visible in '" + fn_.name + "'; pass it as an argument");
    return;
  }
  if (defs.has(v)) return;
  reported_.insert(v);
  diags_.error(where(ref.span), "'" + v->name +
                                    "' may be used before it is assigned: some path to this use in '" +
                                    fn_.name + "' does not assign it; assign it before the branch or loop");
}

void FunctionVerifier::check_op_call(const OpCall& call) {
  SourceSpan span = where(call.span);
  if (!call.op) {
    diags_.error(span, "op call without an op in '" + fn_.name + "'");
    return;
  }
  // Slots follow the op's signature even when the call is spelled with an alias.
  const OpInfo& op = op_info(call.op->id);
  if (call.args.size() != op.params.size()) {
    diags_.error(span, call.op->spelling + ": malformed call with " + std::to_string(call.args.size()) +
                           " argument slots; the signature has " + std::to_string(op.params.size()));
    return;
  }
  if (call.op->varargs_at < 0 && !call.varargs.empty()) {
    diags_.error(span, call.op->spelling + ": takes no extra positional arguments");
    return;
  }
  if (!(call.op->levels & level_bit(fn_.kind))) {
    diags_.error(span, call.op->spelling + ": not allowed in " + std::string(function_kind_name(fn_.kind)) +
                           " function '" + fn_.name + "'; it may only be called from " +
                           allowed_levels(call.op->levels));
    return;
  }
  for (size_t i = 0; i < call.op->params.size(); ++i) {
    if (call.op->params[i].required && !call.args[i]) {
      diags_.error(span, call.op->spelling + ": missing required argument '" + call.op->params[i].name + "'");
      return;
    }
  }
  ContractContext cx{call, scope_, diags_};
  check_op(cx);
}

void FunctionVerifier::check_callee_exists(const std::string& callee, const SourceSpan& span) {
  if (program_.find(callee)) return;
  diags_.error(where(span), "'" + callee + "' is not a function of program '" + program_.name + "'");
}

void FunctionVerifier::check_func_call(const FuncCall& call) {
  Function callee = program_.find(call.callee);
  if (!callee) {
    check_callee_exists(call.callee, call.span);
    return;
  }
  if (call.device && fn_.kind != FunctionKind::Host)
    diags_.error(
        where(call.device->span),
        "'device=' is only allowed in calls from the host orchestrator, not from '" + fn_.name + "'");
  std::vector<BoundArg> args;
  for (const Expr& a : call.args) args.push_back(BoundArg{a, a ? a->span : SourceSpan{}});
  check_call_arguments(*callee, args, (call.via_self ? "self." : "") + call.callee, where(call.span), diags_);
}

}  // namespace ptodist::ir::detail
