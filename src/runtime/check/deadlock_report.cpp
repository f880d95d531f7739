// Check mode's deadlock report (hazard 6): nothing can run and nothing is in flight. Names every
// blocked actor with the cell it waits on, and the wait-for cycle; or, when blocks of a kernel never
// got a core because blocked blocks hold them all, a core-budget deadlock at the submit.
#include <algorithm>
#include <atomic>
#include <functional>
#include <map>

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/support/diagnostics.h"
#include "sched_impl.h"

namespace ptodist::runtime::check {
namespace {

bool same_place(const SourceSpan& a, const SourceSpan& b) {
  return a.file == b.file && a.line == b.line && a.col == b.col;
}

// Finds, in one statement, an op call at `at` and any op that notifies.
class OpFinder : public ir::Walker {
 public:
  explicit OpFinder(const SourceSpan& at) : at_(at) {}
  void visit_expr(const ir::Expr& e) override {
    if (!e) return;
    if (const auto* c = e->as<ir::OpCall>()) {
      if (same_place(c->span, at_)) found = true;
      if (c->op && c->op->has(ir::kNotify)) notifies = true;
    }
    ir::Walker::visit_expr(e);
  }
  bool found = false;
  bool notifies = false;

 private:
  SourceSpan at_;
};

std::vector<ir::Block> nested_blocks(const ir::Stmt& s) {
  if (const auto* f = s->as<ir::For>()) return {f->body};
  if (const auto* w = s->as<ir::While>()) return {w->body};
  if (const auto* i = s->as<ir::If>()) return {i->then_body, i->else_body};
  if (const auto* m = s->as<ir::ManualScope>()) return {m->body};
  return {};
}

// Searches `b` for the statement holding the op at `at`. Returns 1 when found and something notifies
// after it (a later statement at any enclosing level, or a loop around it, whose next iteration
// comes after), 0 when found and nothing does, -1 when not in `b`.
int search(const ir::Block& b, const SourceSpan& at) {
  for (size_t i = 0; i < b.size(); ++i) {
    OpFinder here(at);
    here.visit_stmt(b[i]);
    if (!here.found) continue;
    int inner = 0;
    for (const ir::Block& nb : nested_blocks(b[i])) {
      int r = search(nb, at);
      if (r >= 0) inner = r;
    }
    if ((b[i]->isa<ir::For>() || b[i]->isa<ir::While>()) && here.notifies) inner = 1;
    for (size_t j = i + 1; j < b.size() && !inner; ++j) {
      OpFinder later(at);
      later.visit_stmt(b[j]);
      if (later.notifies) inner = 1;
    }
    return inner;
  }
  return -1;
}

std::string block_note(const Actor& a) {
  const BlockInfo& b = a.info;
  std::string s = a.name + " waits in " + b.op;
  if (!b.cell.empty()) s += " on " + b.cell;
  if (b.watch) {
    int32_t v = std::atomic_ref<int32_t>(*const_cast<int32_t*>(b.watch)).load();
    s += " (sees " + std::to_string(v) + ", expects " + b.cmp + " " + std::to_string(b.expected) + ")";
  } else if (b.watch_u) {
    uint32_t v = std::atomic_ref<uint32_t>(*const_cast<uint32_t*>(b.watch_u)).load();
    s += " (sees " + std::to_string(v) + ", expects >= " + std::to_string(b.expected) + ")";
  }
  return s;
}

bool waits_on_signal(const Actor& a) {
  return a.state == RunState::Blocked && (a.info.watch || a.info.watch_u);
}

// Depth-first search for a cycle over `edges`, visiting nodes in order and trying unvisited
// successors before closing a cycle, which then goes back as far up the path as it can: the cycle
// names as many blocked cores as the graph allows. Returns it (first node repeated) or empty.
std::vector<const Actor*> find_cycle(const std::vector<const Actor*>& nodes,
                                     const std::map<const Actor*, std::vector<const Actor*>>& edges) {
  std::map<const Actor*, int> mark;  // 1 on the path, 2 done
  std::vector<const Actor*> path, cycle;
  std::function<bool(const Actor*)> dfs = [&](const Actor* v) {
    mark[v] = 1;
    path.push_back(v);
    for (const Actor* w : edges.at(v))
      if (mark[w] == 0 && dfs(w)) return true;
    for (auto it = path.begin(); it != path.end(); ++it) {
      if (*it == v || std::find(edges.at(v).begin(), edges.at(v).end(), *it) == edges.at(v).end()) continue;
      cycle.assign(it, path.end());
      cycle.push_back(*it);
      return true;
    }
    path.pop_back();
    mark[v] = 2;
    return false;
  };
  for (const Actor* v : nodes)
    if (mark[v] == 0 && dfs(v)) return cycle;
  return {};
}

// "rank 0, vector core 0" of "rank 0, vector core 0 (block 0/1 of step)".
std::string short_name(const std::string& name) {
  size_t paren = name.find(" (");
  return paren == std::string::npos ? name : name.substr(0, paren);
}

}  // namespace

// The wait-for graph is an approximation from the IR, not from cell values: an edge W -> V means V is
// blocked on a signal and V's function has a notify after V's blocking statement (in statement order,
// or anywhere in a loop around it), so V might send W's signal, but only after its own wait returns.
// The notify's peer is evaluated in V's frame (BlockInfo::may_notify), so V -> W needs a notify of V
// that targets W's rank (or one whose peer is not known yet); the cell is not resolved. An actor whose
// function is unknown, or whose wait is in a called helper, counts as one that notifies after.
bool notifies_after(const ir::FunctionNode& fn, const SourceSpan& at) {
  return search(fn.body, at) != 0;
}

std::string SchedulerImpl::deadlock_report() {
  std::vector<const Actor*> blocked, signal_waiters;
  std::vector<const Actor*> starved;  // blocks of the first starved kernel (by actor id) on its rank
  for (const auto& a : actors) {
    if (a->state == RunState::Blocked) blocked.push_back(a.get());
    if (waits_on_signal(*a)) signal_waiters.push_back(a.get());
    bool no_core = a->state == RunState::Unstarted && a->needs_core && a->core_id < 0 &&
                   (!a->start_when || a->start_when());
    if (no_core && (starved.empty() || (starved[0]->fn == a->fn && starved[0]->rank == a->rank &&
                                        same_place(starved[0]->origin, a->origin))))
      starved.push_back(a.get());
  }
  Diagnostic d;
  if (!starved.empty()) {
    const Actor& first = *starved.front();
    const ChipProfile& p = world.profile();
    std::string kind = first.cube ? "cube" : "vector";
    size_t n = starved.size();
    std::string count = std::to_string(n) + (n == 1 ? " block" : " blocks");
    d.span = first.origin;
    d.message = "check: core-budget deadlock: kernel '" + std::string(first.fn ? first.fn->name : "?") +
                "' has " + count + " that never got a " + kind + " core (chip '" + p.name + "' has " +
                std::to_string(first.cube ? p.cube_cores : p.vector_cores) + ", all held by blocked blocks)";
    for (const Actor* a : blocked) DiagnosticEngine::note(d, a->info.span, block_note(*a));
    return format_diagnostic(d);
  }
  // Ranks in order, so a cycle reads rank 0 -> rank 1 -> ... whatever order the actors were made in.
  std::stable_sort(signal_waiters.begin(), signal_waiters.end(),
                   [](const Actor* a, const Actor* b) { return a->rank < b->rank; });
  std::map<const Actor*, std::vector<const Actor*>> edges;
  for (const Actor* w : signal_waiters) {
    auto& out = edges[w];
    for (const Actor* v : signal_waiters)
      if (v != w && (!v->fn || notifies_after(*v->fn, v->info.span)) &&
          (!v->info.may_notify || v->info.may_notify(w->rank)))
        out.push_back(v);
  }
  std::vector<const Actor*> cycle = find_cycle(signal_waiters, edges);
  const Actor* head = !cycle.empty() ? cycle.front() : (!blocked.empty() ? blocked.front() : nullptr);
  d.message = "check: deadlock: every core is blocked and no transfer is in flight";
  if (head) d.span = head->info.span;
  for (const Actor* a : blocked) DiagnosticEngine::note(d, a->info.span, block_note(*a));
  std::string out = format_diagnostic(d);
  if (cycle.empty())
    return out + "note: no wait-for cycle: the signals waited on are sent by no blocked core\n";
  out += "note: wait-for cycle: ";
  for (size_t i = 0; i < cycle.size(); ++i) out += (i ? " -> " : "") + short_name(cycle[i]->name);
  return out + "\n";
}

}  // namespace ptodist::runtime::check
