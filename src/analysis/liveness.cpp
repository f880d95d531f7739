// Live ranges of the tile variables of a kernel, for memory planning.
#include "ptodist/analysis/liveness.h"

#include <algorithm>
#include <map>

#include "ptodist/ir/functor.h"

namespace ptodist::analysis {

using namespace ir;

namespace {

bool is_tile(const Var& v) {
  return v && v->type && v->type->kind == TypeKind::Tile;
}

// Records the uses of tile variables in the expressions of one statement.
class UseCollector : public Walker {
 public:
  explicit UseCollector(std::vector<const VarNode*>& out) : out_(out) {}
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (auto* r = e->as<VarRef>(); r && is_tile(r->var)) out_.push_back(r->var.get());
    Walker::visit_expr(e);
  }

 private:
  std::vector<const VarNode*>& out_;
};

class Numbering {
 public:
  struct Info {
    Var var;
    int start = -1, end = -1;
    int order = 0;
    const StmtNode* first_def = nullptr;
    int def_at = -1;  // the position of first_def
  };
  std::map<const VarNode*, Info> vars;
  std::vector<std::pair<int, int>> loops;

  void block(const Block& b) {
    for (const Stmt& s : b) stmt(s);
  }

 private:
  int pos_ = 0;
  int order_ = 0;

  void touch(const Var& v, int at) {
    Info& i = vars[v.get()];
    if (!i.var) {
      i.var = v;
      i.order = order_++;
    }
    i.start = i.start < 0 ? at : std::min(i.start, at);
    i.end = std::max(i.end, at);
  }

  void uses(const Expr& e, int at) {
    if (!e) return;
    std::vector<const VarNode*> used;
    UseCollector uc(used);
    uc.visit_expr(e);
    for (const VarNode* v : used) {
      auto it = vars.find(v);
      if (it != vars.end()) touch(it->second.var, at);
    }
  }

  void stmt(const Stmt& s) {
    int at = pos_++;
    if (auto* a = s->as<Assign>()) {
      uses(a->value, at);
      for (const Var& v : a->targets) {
        if (!is_tile(v)) continue;
        bool first = !vars.count(v.get()) || !vars[v.get()].first_def;
        touch(v, at);
        if (first) {
          vars[v.get()].first_def = s.get();
          vars[v.get()].def_at = at;
        }
      }
    } else if (auto* x = s->as<ExprStmt>()) {
      uses(x->value, at);
    } else if (auto* f = s->as<For>()) {
      uses(f->start, at);
      uses(f->stop, at);
      uses(f->step, at);
      block(f->body);
      loops.push_back({at, pos_++});
    } else if (auto* w = s->as<While>()) {
      uses(w->cond, at);
      block(w->body);
      loops.push_back({at, pos_++});
    } else if (auto* i = s->as<If>()) {
      uses(i->cond, at);
      block(i->then_body);
      block(i->else_body);
    } else if (auto* m = s->as<ManualScope>()) {
      block(m->body);
    } else if (auto* r = s->as<Return>()) {
      for (const Expr& v : r->values) uses(v, at);
    }
  }
};

// Uses before the definition (a tile used in a loop before a later definition) are recorded as the
// variable is first seen; a second numbering pass picks them up.
Numbering number(const Function& f) {
  Numbering n;
  n.block(f->body);
  Numbering again;
  again.vars = n.vars;
  for (auto& [v, i] : again.vars) {
    i.start = i.end = i.def_at = -1;
    i.first_def = nullptr;
  }
  again.block(f->body);
  return again;
}

}  // namespace

std::vector<LiveRange> tile_live_ranges(const Function& f) {
  Numbering n = number(f);
  std::vector<std::pair<int, LiveRange>> ranges;
  for (const auto& [key, i] : n.vars) {
    if (!i.first_def || i.start < 0) continue;  // a tile never defined here (not a kernel-local buffer)
    LiveRange r{i.var, i.start, i.end, i.first_def};
    // Read before its first definition in program order: the value comes around the back edge of a
    // loop that holds both points, so it is live through that whole loop.
    for (auto [ls, le] : n.loops)
      if (i.start < i.def_at && ls < i.start && i.def_at < le) {
        r.start = std::min(r.start, ls);
        r.end = std::max(r.end, le);
      }
    // Extend across loops until stable: extending over an inner loop can make an outer one partial.
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [ls, le] : n.loops) {
        bool touches = r.start <= le && ls <= r.end;
        bool inside = ls < r.start && r.end < le;
        if (touches && !inside && (r.start > ls || r.end < le)) {
          r.start = std::min(r.start, ls);
          r.end = std::max(r.end, le);
          changed = true;
        }
      }
    }
    ranges.push_back({i.order, r});
  }
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) {
    return a.second.start != b.second.start ? a.second.start < b.second.start : a.first < b.first;
  });
  std::vector<LiveRange> out;
  for (auto& [o, r] : ranges) out.push_back(r);
  return out;
}

}  // namespace ptodist::analysis
