// Frame layout: every variable a function binds or reads gets a small slot number, once per program.
#include "frame_layout.h"

#include <map>
#include <set>
#include <vector>

#include "ptodist/ir/functor.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {
namespace {

// Every variable a function mentions: parameters, assignment targets, loop variables and reads.
class VarCollector : public ir::Walker {
 public:
  std::vector<const ir::VarNode*> vars;

  void add(const ir::Var& v) {
    if (v) vars.push_back(v.get());
  }
  void visit_expr(const ir::Expr& e) override {
    if (e && e->kind == ir::ExprKind::VarRef) add(e->as<ir::VarRef>()->var);
    ir::Walker::visit_expr(e);
  }
  void visit_stmt(const ir::Stmt& s) override {
    if (s->kind == ir::StmtKind::Assign)
      for (const ir::Var& v : s->as<ir::Assign>()->targets) add(v);
    if (s->kind == ir::StmtKind::For) add(s->as<ir::For>()->iv);
    ir::Walker::visit_stmt(s);
  }
};

}  // namespace

std::unordered_map<const ir::FunctionNode*, int> lay_out_frames(const ir::ProgramNode& program) {
  std::unordered_map<const ir::FunctionNode*, int> sizes;
  for (const ir::Function& fn : program.functions) {
    VarCollector c;
    for (const ir::Param& p : fn->params) c.add(p.var);
    c.visit_function(fn);
    // A variable another function already placed keeps its slot (a shared node has one slot); the new
    // ones take the smallest numbers no variable of this function holds.
    std::set<int> taken;
    std::map<int, const ir::VarNode*> holder;  // slot -> the variable holding it in this function
    for (const ir::VarNode* v : c.vars) {
      if (v->frame_slot < 0) continue;
      auto [at, fresh] = holder.emplace(v->frame_slot, v);
      // Two variables of one function laid out apart (in programs that shared them) with the same
      // slot would alias in a frame: wrong values, silently. No pass builds such a program today.
      PTODIST_INTERNAL_ASSERT(fresh || at->second == v, "lay_out_frames: variables '" + at->second->name +
                                                            "' and '" + v->name + "' of '" + fn->name +
                                                            "' share a frame slot");
      taken.insert(v->frame_slot);
    }
    int next = 0;
    for (const ir::VarNode* v : c.vars) {
      if (v->frame_slot >= 0) continue;
      while (taken.count(next)) ++next;
      v->frame_slot = next;
      taken.insert(next);
    }
    sizes[fn.get()] = taken.empty() ? 0 : *taken.rbegin() + 1;
  }
  return sizes;
}

}  // namespace ptodist::runtime
