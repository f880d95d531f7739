// A variable first assigned inside a loop and read after it, as PyPTO's ConvertToSSA gives it a value for
// a loop that runs zero times (FindInitValue in its convert_to_ssa_pass.cpp): an Out or InOut parameter of
// the same type, else the first variable defined before the loop with that type. ptodist assigns that
// value just before the loop, so the common kernel ending
//
//     for i in pl.range(0, m, 2):
//         out = pl.store(t, [i, 0], c)
//     return out
//
// returns `c` when the loop does not run, as PyPTO's does (and for a loop that runs, when the body assigns
// the variable only on some paths, as after a `continue`). The value is taken only from a variable that
// certainly holds one there (a parameter, or one assigned directly in the blocks around the loop, not in
// a branch or another loop); without one nothing is added and the verifier reports the use before
// assignment.
#include "escaping_loop_values.h"

#include <set>

#include "ptodist/ir/functor.h"

namespace ptodist::frontend {

namespace {

using VarSet = std::set<const ir::VarNode*>;

// The variables a statement assigns (targets and loop variables), at any depth.
struct Assigned : ir::Walker {
  std::vector<ir::Var> vars;  // in order of first assignment
  VarSet seen;
  void add(const ir::Var& v) {
    if (v && seen.insert(v.get()).second) vars.push_back(v);
  }
  void visit_stmt(const ir::Stmt& s) override {
    if (const auto* a = s->as<ir::Assign>())
      for (const ir::Var& t : a->targets) add(t);
    if (const auto* f = s->as<ir::For>()) add(f->iv);
    ir::Walker::visit_stmt(s);
  }
};

// The variables a block assigns on every path through it (both branches of an if, the body of a loop
// whose constant bounds make it run). A loop that runs still needs a zero-trip value for the others:
// `continue` leaves the rest of an iteration under an if (loop_exits.cpp), as PyPTO's CtrlFlowTransform
// does, and PyPTO's ConvertToSSA gives the skipped path that same value.
VarSet certainly_assigned(const ir::Block& block) {
  VarSet out;
  for (const ir::Stmt& s : block) {
    if (const auto* a = s->as<ir::Assign>()) {
      for (const ir::Var& t : a->targets)
        if (t) out.insert(t.get());
    } else if (const auto* c = s->as<ir::If>()) {
      VarSet then_vars = certainly_assigned(c->then_body), else_vars = certainly_assigned(c->else_body);
      for (const ir::VarNode* v : then_vars)
        if (else_vars.count(v)) out.insert(v);
    } else if (const auto* f = s->as<ir::For>()) {
      auto trips = ir::constant_trip_count(*f);
      if (trips && *trips > 0) {
        VarSet body = certainly_assigned(f->body);
        out.insert(body.begin(), body.end());
      }
    } else if (const auto* m = s->as<ir::ManualScope>()) {
      VarSet body = certainly_assigned(m->body);
      out.insert(body.begin(), body.end());
    }
  }
  return out;
}

// The variables a run of statements reads.
struct Reads : ir::Walker {
  VarSet vars;
  void visit_expr(const ir::Expr& e) override {
    if (const auto* r = e ? e->as<ir::VarRef>() : nullptr) vars.insert(r->var.get());
    ir::Walker::visit_expr(e);
  }
};

class Seeder {
 public:
  explicit Seeder(const ir::FunctionNode& fn) {
    for (const ir::Param& p : fn.params) {
      if (!p.var) continue;
      define(p.var);
      certain_.push_back(p.var);
      if (p.direction != ir::Direction::In) outputs_.push_back(p.var);
    }
  }

  // `read_after`: what the statements after this block (in the enclosing blocks) read.
  ir::Block seed(const ir::Block& block, const VarSet& read_after) {
    ir::Block out;
    const size_t certain_before = certain_.size();  // what this block assigns is certain only inside it
    // later[i]: what the statements after block[i] read, here and in the enclosing blocks.
    std::vector<VarSet> later(block.size(), read_after);
    for (size_t i = block.size(); i-- > 1;) {
      Reads reads;
      reads.visit_stmt(block[i]);
      later[i - 1] = later[i];
      later[i - 1].insert(reads.vars.begin(), reads.vars.end());
    }
    for (size_t i = 0; i < block.size(); ++i) {
      const ir::Stmt& s = block[i];
      // A loop that certainly runs defines what its body certainly assigns (the verifier knows it too);
      // a while loop may always run zero times.
      const auto* loop = s->as<ir::For>();
      const auto* while_loop = s->as<ir::While>();
      if (loop || while_loop) {
        const ir::Block& body = loop ? loop->body : while_loop->body;
        auto trips = loop ? ir::constant_trip_count(*loop) : std::nullopt;
        VarSet defined_by_body = trips && *trips > 0 ? certainly_assigned(body) : VarSet{};
        for (const ir::Var& v : escaping(body, loop ? loop->iv : nullptr, later[i])) {
          if (defined_by_body.count(v.get())) continue;
          ir::Var init = init_value(v);
          if (!init) continue;
          auto a = std::make_shared<ir::Assign>();
          a->span = s->span;
          a->targets = {v};
          auto ref = std::make_shared<ir::VarRef>();
          ref->var = init;
          ref->type = init->type;
          ref->span = s->span;
          a->value = ref;
          out.push_back(a);
          define(v);
          certain_.push_back(v);
        }
      }
      out.push_back(seed_children(s, later[i]));
      Assigned assigned;
      assigned.visit_stmt(s);
      for (const ir::Var& v : assigned.vars) define(v);
      if (const auto* a = s->as<ir::Assign>())
        for (const ir::Var& v : a->targets)
          if (v) certain_.push_back(v);
    }
    certain_.resize(certain_before);
    return out;
  }

 private:
  VarSet defined_;                // assigned anywhere before: PyPTO's variables in scope
  std::vector<ir::Var> certain_;  // certainly assigned here, in order of definition (PyPTO's UniqueId order)
  std::vector<ir::Var> outputs_;  // the Out and InOut parameters

  void define(const ir::Var& v) {
    if (v) defined_.insert(v.get());
  }

  // The variables the loop assigns that were not defined before it and are read after it.
  std::vector<ir::Var> escaping(const ir::Block& body, const ir::Var& iv, const VarSet& later) const {
    Assigned assigned;
    assigned.visit_block(body);
    std::vector<ir::Var> out;
    for (const ir::Var& v : assigned.vars)
      if (v != iv && !defined_.count(v.get()) && later.count(v.get()) && v->type) out.push_back(v);
    return out;
  }

  ir::Var init_value(const ir::Var& v) const {
    for (const ir::Var& p : outputs_)
      if (p->type && ir::type_equal(p->type, v->type)) return p;
    for (const ir::Var& d : certain_)
      if (d->type && ir::type_equal(d->type, v->type)) return d;
    return nullptr;
  }

  ir::Stmt seed_children(const ir::Stmt& s, const VarSet& later) {
    if (const auto* f = s->as<ir::For>()) {
      auto copy = std::make_shared<ir::For>(*f);
      define(f->iv);
      certain_.push_back(f->iv);
      copy->body = seed(f->body, later);
      certain_.pop_back();
      return copy;
    }
    if (const auto* w = s->as<ir::While>()) {
      auto copy = std::make_shared<ir::While>(*w);
      copy->body = seed(w->body, later);
      return copy;
    }
    if (const auto* c = s->as<ir::If>()) {
      auto copy = std::make_shared<ir::If>(*c);
      copy->then_body = seed(c->then_body, later);
      copy->else_body = seed(c->else_body, later);
      return copy;
    }
    if (const auto* m = s->as<ir::ManualScope>()) {
      auto copy = std::make_shared<ir::ManualScope>(*m);
      copy->body = seed(m->body, later);
      return copy;
    }
    return s;
  }
};

}  // namespace

void seed_escaping_loop_values(ir::FunctionNode& fn) {
  fn.body = Seeder(fn).seed(fn.body, {});
}

}  // namespace ptodist::frontend
