// The clean-up after a mixed kernel's split (side_body.h): each half keeps every shared statement, but
// a tensor view only the cube's loads used, or a loop left empty, does nothing on the vector half.
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "side_body.h"

namespace ptodist::transforms::mixed {

using namespace ir;

namespace {

// Whether evaluating an expression only computes a value: no op that writes, signals or waits, and no
// call of a function.
class OnlyComputes : public Walker {
 public:
  bool yes = true;
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (e->isa<FuncCall>()) yes = false;
    if (const auto* c = e->as<OpCall>(); c && (c->op->effects & ~(kReadsGM | kReadsRemote)) != 0) yes = false;
    Walker::visit_expr(e);
  }
};

bool removable(const Stmt& s, const std::set<const VarNode*>& read) {
  const auto* a = s->as<Assign>();
  if (!a || side_of(s) != Side::Shared) return false;
  for (const Var& v : a->targets)
    if (v && read.count(v.get())) return false;
  OnlyComputes pure;
  pure.visit_expr(a->value);
  return pure.yes;
}

bool empty_compound(const Stmt& s) {
  if (const auto* f = s->as<For>()) return f->body.empty();
  if (const auto* w = s->as<While>()) return w->body.empty();
  if (const auto* m = s->as<ManualScope>()) return m->body.empty();
  if (const auto* i = s->as<If>()) return i->then_body.empty() && i->else_body.empty();
  return false;
}

Block sweep(const Block& b, const std::set<const VarNode*>& read, bool& changed) {
  Block out;
  for (const Stmt& s : b) {
    if (removable(s, read)) {
      changed = true;
      continue;
    }
    Stmt kept =
        detail::with_nested_blocks(s, [&](const Block& inner) { return sweep(inner, read, changed); });
    if (kept != s && empty_compound(kept)) {
      changed = true;
      continue;
    }
    out.push_back(kept);
  }
  return out;
}

// Every variable a statement defines: assignment targets and loop variables, nested blocks included.
class Defined : public Walker {
 public:
  std::set<const VarNode*> vars;
  void visit_stmt(const Stmt& s) override {
    if (const auto* a = s->as<Assign>())
      for (const Var& v : a->targets)
        if (v) vars.insert(v.get());
    if (const auto* f = s->as<For>()) vars.insert(f->iv.get());
    Walker::visit_stmt(s);
  }
};

// The first read of a variable outside `defined`, in statement order.
class UndefinedRead : public Walker {
 public:
  explicit UndefinedRead(const std::set<const VarNode*>& defined) : defined_(defined) {}
  const VarRef* found = nullptr;
  void visit_expr(const Expr& e) override {
    if (found || !e) return;
    if (const auto* r = e->as<VarRef>(); r && r->var && !defined_.count(r->var.get())) {
      found = r;
      return;
    }
    Walker::visit_expr(e);
  }

 private:
  const std::set<const VarNode*>& defined_;
};

}  // namespace

Block drop_dead_shared(Block body) {
  for (bool changed = true; changed;) {
    changed = false;
    std::set<const VarNode*> read;
    for (const Stmt& s : body)
      for (const VarNode* v : detail::vars_read(s)) read.insert(v);
    body = sweep(body, read, changed);
  }
  return body;
}

bool check_self_contained(const Function& half, const char* what, DiagnosticEngine& diags) {
  Defined defined;
  for (const Param& p : half->params) defined.vars.insert(p.var.get());
  defined.visit_block(half->body);
  UndefinedRead reads(defined.vars);
  reads.visit_block(half->body);
  if (!reads.found) return true;
  diags.error(reads.found->span,
              "expand-mixed-kernel: the " + std::string(what) + " half of kernel '" + half->name +
                  "' reads '" + reads.found->var->name +
                  "', which only the other core computes; on a2a3 the cube and vector cores share no "
                  "registers, and ptodist passes data between them only as a tile moved with pl.move");
  return false;
}

}  // namespace ptodist::transforms::mixed
