// Which deferred waiters print back as the `with pl.at(level=pl.Level.CORE_GROUP)` scope they came from.
//
// A deferred waiter (a kernel that calls pld.system.defer_wait) is valid only as the body of such a
// scope in an orchestration function, in PyPTO as here: the parser outlines the scope into a kernel and
// a call (or a pl.spmd_submit when the scope has `as`, deps= or sits in a manual scope), and rejects a
// declared kernel that calls defer_wait. Printed as a declared kernel, the outlined waiter would not
// parse again, so it prints at its call site as the scope, and its definition is not printed.
// Only the shape the outliner builds qualifies: one call site in an orchestration function, arguments
// that are the function's parameters by name, results that are the names the body returns. Any other
// shape (a program rewritten by a pass) keeps the declared-kernel form.
#include <map>

#include "printer_internal.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::ir::detail {

namespace {

bool calls_defer_wait(const FunctionNode& fn) {
  struct Finder : Walker {
    bool found = false;
    void visit_expr(const Expr& e) override {
      if (found || !e) return;
      if (auto* c = e->as<OpCall>(); c && c->op && c->op->id == OpId::DeferWait) found = true;
      Walker::visit_expr(e);
    }
  } finder;
  finder.visit_block(fn.body);
  return finder.found;
}

// How many times each name is called or referenced (a FuncRef is a submit's kernel).
struct CalleeCounter : Walker {
  std::map<std::string, int> uses;
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (auto* c = e->as<FuncCall>()) ++uses[c->callee];
    if (auto* r = e->as<FuncRef>()) ++uses[r->callee];
    Walker::visit_expr(e);
  }
};

bool args_are_params(const std::vector<Expr>& args, const FunctionNode& fn) {
  if (args.size() != fn.params.size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    auto* v = args[i] ? args[i]->as<VarRef>() : nullptr;
    if (!v || !v->var || !fn.params[i].var || v->var->name != fn.params[i].var->name) return false;
  }
  return true;
}

// The body's trailing `return a, b` must return the very names the call site binds.
bool results_match(const std::vector<Var>& targets, const FunctionNode& fn) {
  const Return* r = !fn.body.empty() && fn.body.back() ? fn.body.back()->as<Return>() : nullptr;
  size_t n = r ? r->values.size() : 0;
  if (targets.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    auto* v = r->values[i] ? r->values[i]->as<VarRef>() : nullptr;
    if (!v || !v->var || !targets[i] || v->var->name != targets[i]->name) return false;
  }
  return true;
}

class SiteFinder {
 public:
  SiteFinder(const std::map<std::string, const FunctionNode*>& waiters, AtScopeSites& sites)
      : waiters_(waiters), sites_(sites) {}

  void block(const Block& b, bool in_manual) {
    for (const Stmt& s : b) {
      if (!s) continue;
      if (auto* f = s->as<For>()) block(f->body, in_manual);
      if (auto* w = s->as<While>()) block(w->body, in_manual);
      if (auto* i = s->as<If>()) {
        block(i->then_body, in_manual);
        block(i->else_body, in_manual);
      }
      if (auto* m = s->as<ManualScope>()) block(m->body, true);
      if (auto* a = s->as<Assign>()) site(*s, a->value, a->targets, in_manual);
      if (auto* e = s->as<ExprStmt>()) site(*s, e->value, {}, in_manual);
    }
  }

 private:
  const FunctionNode* waiter(const std::string& name) const {
    auto it = waiters_.find(name);
    return it == waiters_.end() ? nullptr : it->second;
  }

  // `self.w(args)` outside a manual scope, or `[result], tid = pl.spmd_submit(self.w, args, deps=)`
  // when the scope had `as`, deps= or sat in a manual scope: what the outliner emits.
  void site(const StmtNode& s, const Expr& value, const std::vector<Var>& targets, bool in_manual) {
    if (auto* call = value ? value->as<FuncCall>() : nullptr) {
      const FunctionNode* fn = waiter(call->callee);
      if (fn && !in_manual && !call->device && args_are_params(call->args, *fn) &&
          results_match(targets, *fn))
        sites_[&s] = AtScopeSite{fn, nullptr, nullptr};
      return;
    }
    auto* submit = value ? value->as<OpCall>() : nullptr;
    if (!submit || !submit->op || submit->op->id != OpId::SpmdSubmit || targets.empty()) return;
    auto* kernel = submit->arg("kernel") ? submit->arg("kernel")->as<FuncRef>() : nullptr;
    const FunctionNode* fn = kernel ? waiter(kernel->callee) : nullptr;
    const Expr& core_num = submit->arg("core_num");
    if (!fn || (core_num && as_const_int(core_num) != 1) || !args_are_params(submit->varargs, *fn)) return;
    std::vector<Var> results(targets.begin(), targets.end() - 1);
    if (results.size() == 1 && !results[0]) results.clear();
    const Var& tid = targets.back();
    const Expr& deps = submit->arg("deps");
    if (!in_manual && !tid && !deps) return;  // such a scope is a plain call, not a submit
    if (results.size() > 1 || !results_match(results, *fn)) return;
    sites_[&s] = AtScopeSite{fn, deps, tid};
  }

  const std::map<std::string, const FunctionNode*>& waiters_;
  AtScopeSites& sites_;
};

}  // namespace

AtScopeSites waiter_scope_sites(const ProgramNode& p) {
  std::map<std::string, const FunctionNode*> waiters;
  CalleeCounter counter;
  for (const Function& f : p.functions)
    if (f) counter.visit_block(f->body);
  for (const Function& f : p.functions)
    if (f && f->kind == FunctionKind::InCore && f->docstring.empty() && counter.uses[f->name] == 1 &&
        calls_defer_wait(*f))
      waiters[f->name] = f.get();
  AtScopeSites sites;
  if (waiters.empty()) return sites;
  SiteFinder finder(waiters, sites);
  for (const Function& f : p.functions)
    if (f && f->kind == FunctionKind::Orchestration) finder.block(f->body, false);
  return sites;
}

}  // namespace ptodist::ir::detail
