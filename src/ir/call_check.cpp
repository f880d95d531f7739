// Calls of program functions: argument compatibility and result types.
#include "call_check.h"

#include "ptodist/ir/expr.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

namespace {

bool dims_compatible(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto x = as_const_int(a[i]), y = as_const_int(b[i]);
    if (x && y && *x != *y) return false;
  }
  return true;
}

// The dims that are not the constant 1: [1, SIZE] and [SIZE] name the same memory.
std::vector<Expr> without_ones(const std::vector<Expr>& dims) {
  std::vector<Expr> out;
  for (const Expr& d : dims)
    if (as_const_int(d) != std::optional<long long>(1)) out.push_back(d);
  return out;
}

bool same_static_numel(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  long long na = 1, nb = 1;
  for (const Expr& d : a) {
    auto v = as_const_int(d);
    if (!v) return false;
    na *= *v;
  }
  for (const Expr& d : b) {
    auto v = as_const_int(d);
    if (!v) return false;
    nb *= *v;
  }
  return na == nb;
}

}  // namespace

bool arg_type_compatible(const Type& arg, const Type& param) {
  if (!arg || !param) return true;  // an earlier error, or an unannotated parameter
  if (param->kind == TypeKind::Scalar) {
    if (arg->kind != TypeKind::Scalar) return false;
    if (dtype_is_float(param->dtype)) return true;
    return !dtype_is_float(arg->dtype);
  }
  bool kind_ok =
      arg->kind == param->kind || (param->kind == TypeKind::Tensor && arg->kind == TypeKind::DistTensor);
  if (!kind_ok) return false;
  if (param->kind == TypeKind::Tuple) return true;
  if (!param->has_shape()) return true;
  if (param->kind == TypeKind::Tile && arg->memory != param->memory) return false;
  if (arg->dtype != param->dtype) return false;
  if (dims_compatible(arg->shape, param->shape)) return true;
  // A window is symmetric memory without a layout of its own: as in PyPTO, a callee may view it with
  // another shape of the same size (a [SIZE] window passed as [1, SIZE]).
  return param->kind == TypeKind::DistTensor &&
         (same_static_numel(arg->shape, param->shape) ||
          dims_compatible(without_ones(arg->shape), without_ones(param->shape)));
}

bool check_call_arguments(const FunctionNode& callee, const std::vector<BoundArg>& args,
                          const std::string& who, const SourceSpan& call_span, DiagnosticEngine& diags) {
  if (args.size() != callee.params.size()) {
    diags.error(call_span, who + ": takes " + std::to_string(callee.params.size()) + " argument" +
                               (callee.params.size() == 1 ? "" : "s") + ", got " +
                               std::to_string(args.size()));
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const Param& p = callee.params[i];
    const Expr& a = args[i].value;
    if (!a) {
      ok = false;  // reported where it was built
      continue;
    }
    Type pt = p.var ? p.var->type : nullptr;
    if (arg_type_compatible(a->type, pt)) continue;
    diags.error(args[i].span.valid() ? args[i].span : call_span,
                who + ": argument '" + (p.var ? p.var->name : std::to_string(i)) + "' must be " +
                    type_str(pt) + ", got " + type_str(a->type));
    ok = false;
  }
  return ok;
}

Type call_result_type(const FunctionNode& callee) {
  if (callee.return_types.size() == 1) return callee.return_types[0];
  if (callee.return_types.size() > 1) return tuple_type(callee.return_types);
  std::vector<Type> written;
  for (const Param& p : callee.params)
    if (p.direction != Direction::In && p.var) written.push_back(p.var->type);
  if (written.empty()) return simple_type(TypeKind::None);
  if (written.size() == 1) return written[0];
  return tuple_type(std::move(written));
}

Function find_function(const std::vector<Function>* functions, std::string_view name) {
  if (!functions) return nullptr;
  for (const Function& f : *functions)
    if (f && f->name == name) return f;
  return nullptr;
}

uint32_t level_bit(FunctionKind k) {
  if (is_kernel(k)) return kInKernel;
  // A Group's body only calls its kernels, as an orchestration does.
  return k == FunctionKind::Orchestration || k == FunctionKind::Group ? kInOrchestration : kInHost;
}

std::string allowed_levels(uint32_t levels) {
  std::vector<std::string> parts;
  if (levels & kInKernel) parts.push_back("kernels (InCore, AIC, AIV)");
  if (levels & kInOrchestration) parts.push_back("orchestration functions");
  if (levels & kInHost) parts.push_back("the host orchestrator");
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i)
    out += (i ? (i + 1 == parts.size() ? " and " : ", ") : "") + parts[i];
  return out;
}

}  // namespace ptodist::ir
