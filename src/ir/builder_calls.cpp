// Builder: calls of table ops (arguments bound to signature slots, level and contract checked), calls
// of program functions, and subscripts.
#include <algorithm>

#include "call_check.h"
#include "ptodist/ir/builder.h"
#include "ptodist/ir/contracts.h"

namespace ptodist::ir {

namespace {

std::string_view level_phrase(FunctionKind k) {
  if (is_kernel(k)) return "a kernel";
  if (k == FunctionKind::Group) return "a Group function";
  return k == FunctionKind::Orchestration ? "an orchestration function" : "a host orchestrator";
}

struct Bound {
  std::vector<Expr> slots;
  std::vector<Expr> varargs;
  std::vector<SourceSpan> spans;  // per slot, where the argument was written
};

// Python's binding rules, restricted to what ops.def can express. `op` is the spelling called (an alias
// binds by its own parameter names); the slots are laid out as its op's, which has at least as many.
bool bind_args(const OpInfo& op, const std::vector<CallArg>& args, Bound& b, SourceSpan span,
               DiagnosticEngine& diags) {
  b.slots.assign(op_info(op.id).params.size(), nullptr);
  b.spans.assign(b.slots.size(), SourceSpan{});
  std::vector<bool> given(op.params.size(), false);
  size_t positional_limit = op.positional_limit();
  size_t next = 0;
  size_t positional_count = 0;
  for (const CallArg& a : args) positional_count += a.keyword.empty() ? 1 : 0;
  bool ok = true;
  for (const CallArg& a : args) {
    if (!a.keyword.empty()) continue;
    if (next < positional_limit) {
      b.slots[slot_of(op, next)] = a.value;
      b.spans[slot_of(op, next)] = a.span;
      given[next++] = true;
    } else if (op.varargs_at >= 0) {
      b.varargs.push_back(a.value);
    } else {
      diags.error(a.span.valid() ? a.span : span,
                  op.spelling + ": takes at most " + std::to_string(positional_limit) +
                      (positional_limit < op.params.size() ? " positional" : "") + " argument" +
                      (positional_limit == 1 ? "" : "s") + ", got " + std::to_string(positional_count) +
                      (positional_limit < op.params.size() ? "; pass '" + op.params[positional_limit].name +
                                                                 "' and the parameters after it by keyword"
                                                           : ""));
      return false;
    }
  }
  for (const CallArg& a : args) {
    if (a.keyword.empty()) continue;
    int i = op.param_index(a.keyword);
    SourceSpan at = a.span.valid() ? a.span : span;
    if (i < 0) {
      diags.error(at, op.spelling + ": unexpected keyword argument '" + a.keyword + "'");
      ok = false;
    } else if (given[i]) {
      diags.error(at, op.spelling + ": got multiple values for argument '" + a.keyword + "'");
      ok = false;
    } else {
      b.slots[slot_of(op, static_cast<size_t>(i))] = a.value;
      b.spans[slot_of(op, static_cast<size_t>(i))] = a.span;
      given[i] = true;
    }
  }
  for (size_t i = 0; ok && i < op.params.size(); ++i) {
    if (given[i] || !op.params[i].required) continue;
    diags.error(span, op.spelling + ": missing required argument '" + op.params[i].name + "'");
    ok = false;
  }
  return ok;
}

// pld.tile.put/get take PyPTO's optional second staging tile fifth; a region written positionally
// after a single stage lands in that slot, and PyPTO shifts it back into the region arguments (its
// printer writes such calls), so ptodist does too.
void shift_region_out_of_stage2(const OpInfo& op, Bound& b) {
  if (op.id != OpId::TilePut && op.id != OpId::TileGet) return;
  const OpInfo& o = op_info(op.id);
  const auto at = [&](const char* name) { return static_cast<size_t>(o.param_index(name)); };
  const size_t s2 = at("stage2"), dst = at("dst_offsets"), src = at("src_offsets"), shape = at("shape");
  if (!b.slots[s2] || !(b.slots[s2]->isa<List>() || b.slots[s2]->isa<Tuple>())) return;
  b.slots[shape] = b.slots[src];
  b.slots[src] = b.slots[dst];
  b.slots[dst] = b.slots[s2];
  b.slots[s2] = nullptr;
  b.spans[shape] = b.spans[src];
  b.spans[src] = b.spans[dst];
  b.spans[dst] = b.spans[s2];
}

}  // namespace

Expr Builder::op_call(const OpInfo& op, const std::vector<CallArg>& args, const BuildScope& scope,
                      SourceSpan span) {
  Bound b;
  if (!bind_args(op, args, b, span, diags_)) return nullptr;
  shift_region_out_of_stage2(op, b);
  // An argument that failed to build was reported already; a contract on it would only repeat that.
  for (const CallArg& a : args)
    if (!a.value) return nullptr;
  return op_call_slots(op, std::move(b.slots), std::move(b.varargs), scope, span);
}

Expr Builder::op_call_slots(const OpInfo& op, std::vector<Expr> slots, std::vector<Expr> varargs,
                            const BuildScope& scope, SourceSpan span) {
  PTODIST_INTERNAL_ASSERT(slots.size() == op_info(op.id).params.size(),
                          op.spelling + ": wrong number of slots");
  if (!(op.levels & level_bit(scope.function_kind))) {
    diags_.error(span, op.spelling + ": not allowed in " + std::string(level_phrase(scope.function_kind)) +
                           "; it may only be called from " + allowed_levels(op.levels));
    return nullptr;
  }
  auto call = std::make_shared<OpCall>();
  call->span = span;
  call->op = &op;
  call->args = std::move(slots);
  call->varargs = std::move(varargs);
  Type t = check_op(ContractContext{*call, scope, diags_});
  if (!t) return nullptr;
  call->type = std::move(t);
  return call;
}

// A host call without `device=` runs on whichever rank the runtime picks (round-robin, as PyPTO's
// runtime does), so it must not pass window tensors: which rank's window they are is the device's.
static bool check_unpinned_dispatch(const FunctionNode& fn, const std::vector<BoundArg>& bound,
                                    const std::string& who, SourceSpan span, DiagnosticEngine& diags) {
  if (is_kernel(fn.kind)) {
    diags.error(span, who +
                          ": the host orchestrator dispatches chip orchestrations "
                          "(pl.FunctionType.Orchestration), not kernels; call the chip orchestration that "
                          "runs '" +
                          fn.name + "'");
    return false;
  }
  for (size_t i = 0; i < bound.size(); ++i) {
    const Expr& v = bound[i].value;
    if (v && v->type && v->type->kind == TypeKind::DistTensor) {
      diags.error(bound[i].span.valid() ? bound[i].span : span,
                  who + ": passes the window tensor '" + fn.params[i].var->name +
                      "' (pld.DistributedTensor) without device=<rank>; a call without device= runs on any "
                      "rank, so say which rank's window it is: add device=r");
      return false;
    }
  }
  return true;
}

Expr Builder::func_call(const std::string& callee, bool via_self, const std::vector<CallArg>& args,
                        const BuildScope& scope, SourceSpan span) {
  std::string who = "call of '" + callee + "'";
  Function fn = find_function(scope.functions, callee);
  if (!fn) {
    diags_.error(span, who + ": no function '" + callee + "' in this program");
    return nullptr;
  }
  Expr device;
  std::vector<BoundArg> bound(fn->params.size());
  size_t positional = 0;
  bool ok = true;
  for (const CallArg& a : args) {
    SourceSpan at = a.span.valid() ? a.span : span;
    if (a.keyword == "device") {
      if (scope.function_kind != FunctionKind::Host) {
        diags_.error(at, who + ": 'device=' is only allowed in the host orchestrator, not in " +
                             std::string(level_phrase(scope.function_kind)));
        ok = false;
      } else if (a.value && a.value->type &&
                 (a.value->type->kind != TypeKind::Scalar || !dtype_is_int(a.value->type->dtype))) {
        diags_.error(at, who + ": 'device=' must be an integer rank, got " + type_str(a.value->type));
        ok = false;
      }
      device = a.value;
      continue;
    }
    if (a.keyword.empty()) {
      if (positional >= bound.size()) {
        size_t count = 0;
        for (const CallArg& x : args) count += x.keyword.empty() ? 1 : 0;
        diags_.error(at, who + ": takes " + std::to_string(fn->params.size()) + " argument" +
                             (fn->params.size() == 1 ? "" : "s") + ", got " + std::to_string(count));
        return nullptr;
      }
      bound[positional++] = {a.value, a.span};
      continue;
    }
    auto it = std::find_if(fn->params.begin(), fn->params.end(),
                           [&](const Param& p) { return p.var && p.var->name == a.keyword; });
    if (it == fn->params.end()) {
      diags_.error(at, who + ": unexpected keyword argument '" + a.keyword + "'");
      ok = false;
      continue;
    }
    size_t i = static_cast<size_t>(it - fn->params.begin());
    if (bound[i].value || i < positional) {
      diags_.error(at, who + ": got multiple values for argument '" + a.keyword + "'");
      ok = false;
      continue;
    }
    bound[i] = {a.value, a.span};
  }
  for (size_t i = 0; ok && i < bound.size(); ++i) {
    if (bound[i].value) continue;
    diags_.error(span,
                 who + ": missing argument '" + (fn->params[i].var ? fn->params[i].var->name : "?") + "'");
    ok = false;
  }
  for (const CallArg& a : args) ok = ok && a.value != nullptr;
  if (!ok || !check_call_arguments(*fn, bound, who, span, diags_)) return nullptr;
  if (scope.function_kind == FunctionKind::Host && !device &&
      !check_unpinned_dispatch(*fn, bound, who, span, diags_))
    return nullptr;
  // A Group launches an AIC and an AIV kernel together (their pipes connect them); an orchestration
  // launches the Group.
  if (scope.function_kind == FunctionKind::Group && fn->kind != FunctionKind::AIC &&
      fn->kind != FunctionKind::AIV) {
    diags_.error(span, who + ": a Group function calls only its AIC and AIV kernels, and '" + callee +
                           "' is " + std::string(function_kind_name(fn->kind)));
    return nullptr;
  }
  if (fn->kind == FunctionKind::Group && scope.function_kind != FunctionKind::Orchestration) {
    diags_.error(span, who + ": a Group function is launched by an orchestration function, not by " +
                           std::string(level_phrase(scope.function_kind)));
    return nullptr;
  }
  auto n = std::make_shared<FuncCall>();
  n->span = span;
  n->callee = callee;
  n->via_self = via_self;
  for (BoundArg& b : bound) n->args.push_back(b.value);
  n->device = device;
  n->type = call_result_type(*fn);
  return n;
}

Expr Builder::func_ref(const std::string& callee, bool via_self, const BuildScope& scope, SourceSpan span) {
  if (!find_function(scope.functions, callee)) {
    diags_.error(span, "no function '" + callee + "' in this program");
    return nullptr;
  }
  auto n = std::make_shared<FuncRef>();
  n->span = span;
  n->callee = callee;
  n->via_self = via_self;
  n->type = simple_type(TypeKind::None);
  return n;
}

namespace {

// `x[i]` of a tuple value (spmd_submit's results, several returns) with a constant index.
Type tuple_element(const Type& t, const Expr& index) {
  auto i = as_const_int(index);
  if (!i) return nullptr;
  long long n = static_cast<long long>(t->elements.size());
  long long k = *i < 0 ? *i + n : *i;
  if (k < 0 || k >= n) return nullptr;
  return t->elements[k];
}

}  // namespace

Expr Builder::subscript(Expr value, std::vector<Expr> indices, SourceSpan span) {
  if (!value) return nullptr;
  for (const Expr& i : indices)
    if (!i) return nullptr;
  const Type& t = value->type;
  Type result;
  if (t && t->kind == TypeKind::Tuple && indices.size() == 1) {
    result = tuple_element(t, indices[0]);
    if (!result) {
      diags_.error(indices[0]->span.valid() ? indices[0]->span : span,
                   "subscript of " + type_str(t) + " needs a constant index in range");
      return nullptr;
    }
  } else if (t && t->is_tensor_like() && indices.size() < t->shape.size()) {
    // The per-rank slice `x[r]` of a host tensor: the leading dims are indexed away.
    for (const Expr& i : indices) {
      if (i->type && i->type->kind == TypeKind::Scalar && !dtype_is_float(i->type->dtype)) continue;
      diags_.error(i->span.valid() ? i->span : span,
                   "tensor subscript expects an integer index, got " + type_str(i->type));
      return nullptr;
    }
    std::vector<Expr> dims(t->shape.begin() + static_cast<long>(indices.size()), t->shape.end());
    result = t->kind == TypeKind::Tensor ? tensor_type(std::move(dims), t->dtype)
                                         : dist_tensor_type(std::move(dims), t->dtype);
  } else {
    diags_.error(
        span, "cannot subscript " + type_str(t) + " with " + std::to_string(indices.size()) +
                  " index(es); subscripts select a rank's slice of a host tensor or an element of a tuple");
    return nullptr;
  }
  auto n = std::make_shared<Subscript>();
  n->span = span;
  n->type = std::move(result);
  n->value = std::move(value);
  n->indices = std::move(indices);
  return n;
}

}  // namespace ptodist::ir
