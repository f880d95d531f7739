// check-dynamic-dims: a pl.dynamic name is only usable where a tensor parameter brings its value.
//
// A run binds dynamic dims from the host orchestrator's tensors (docs/runtime.md), and PTO code gets a
// dim's value as a kernel argument beside the tensor parameters whose shapes use it
// (codegen/pto/function.cpp); a name used elsewhere fails late at run time or in `--emit=pto`. This pass
// reports both at `check`, at the first use of the name.
#include "ptodist/transforms/check_dynamic_dims.h"

#include <map>
#include <set>

#include "ptodist/ir/functor.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

void names_in(const Expr& e, std::set<std::string>& out) {
  if (!e) return;
  if (const auto* d = e->as<Dynamic>()) out.insert(d->name);
  if (const auto* b = e->as<Binary>()) {
    names_in(b->lhs, out);
    names_in(b->rhs, out);
  }
}

// The dim names the tensor parameters of a function bring.
std::set<std::string> param_dims(const FunctionNode& f) {
  std::set<std::string> out;
  for (const Param& p : f.params)
    if (p.var->type && p.var->type->is_tensor_like())
      for (const Expr& d : p.var->type->shape) names_in(d, out);
  return out;
}

// The uses of dynamic names in a function's body, first use first: in expressions (which a run
// evaluates) and in the types of the variables it assigns (which PTO code needs). A parameter's shape is
// not a use: a callee's dims come with the tensors passed to it.
struct DimUses : Walker {
  std::map<std::string, SourceSpan> in_exprs, in_types;
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (const auto* d = e->as<Dynamic>()) in_exprs.emplace(d->name, e->span);
    Walker::visit_expr(e);
  }
  void visit_stmt(const Stmt& s) override {
    if (const auto* a = s->as<Assign>())
      for (const Var& v : a->targets) {
        std::set<std::string> names;
        for (const Expr& d : v && v->type ? v->type->shape : std::vector<Expr>{}) names_in(d, names);
        for (const std::string& n : names) in_types.emplace(n, v->span);
      }
    Walker::visit_stmt(s);
  }
};

}  // namespace

Program check_dynamic_dims(const Program& p, PassContext& cx) {
  const FunctionNode* host = nullptr;
  for (const Function& f : p->functions)
    if (f->kind == FunctionKind::Host && !f->host_callback) host = f.get();
  std::set<std::string> bound = host ? param_dims(*host) : std::set<std::string>{};
  bool ok = true;
  for (const Function& f : p->functions) {
    DimUses uses;
    uses.visit_function(f);
    std::set<std::string> own = param_dims(*f);
    std::map<std::string, SourceSpan> all = uses.in_exprs;
    all.insert(uses.in_types.begin(), uses.in_types.end());
    for (const auto& [name, at] : is_kernel(f->kind) ? all : std::map<std::string, SourceSpan>{}) {
      if (own.count(name)) continue;
      cx.diags.error(at, "kernel '" + f->name + "' uses the dynamic dim '" + name +
                             "', which no tensor parameter of it has in its shape; PTO code gets a dim's "
                             "value only beside such a tensor: pass one whose shape uses " +
                             name);
      ok = false;
    }
    for (const auto& [name, at] : host ? uses.in_exprs : std::map<std::string, SourceSpan>{}) {
      if (bound.count(name) || (is_kernel(f->kind) && !own.count(name))) continue;  // reported above
      cx.diags.error(at, "the dynamic dim '" + name +
                             "' is not in the shape of any parameter of the host "
                             "orchestrator '" +
                             host->name +
                             "', so a run cannot bind it: use it in a host "
                             "parameter's shape");
      ok = false;
    }
  }
  return ok ? p : nullptr;
}

}  // namespace ptodist::transforms
