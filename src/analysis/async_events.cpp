// The async-event dataflow over structured control flow and the checks of DESIGN.md §4 "Ordering",
// with the send-buffer check (a pending transfer's local GM region accessed against its direction).
#include "ptodist/analysis/async_events.h"

#include <cstdint>
#include <set>
#include <tuple>

#include "async_events_buffers.h"
#include "async_events_deferred.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::analysis {

using namespace ir;

namespace {

// Loops with a constant trip count up to this many iterations are analysed iteration by iteration
// (exact: a second wait in the second iteration is a double wait); longer ones are widened to a fixpoint.
constexpr long long kUnrollLimit = 16;

// Diagnostics name the op the user wrote, not its tile-level form.
std::string user_spelling(const OpInfo& op) {
  switch (op.id) {
    case OpId::TilePutAsync:
      return "pld.tensor.put_async";
    case OpId::TileGetAsync:
      return "pld.tensor.get_async";
    case OpId::TileWaitAsyncEvent:
      return "pld.system.wait_async_event";
    case OpId::TileTestAsyncEvent:
      return "pld.system.test_async_event";
    default:
      return op.spelling;
  }
}

Var var_of(const Expr& e) {
  auto* r = e ? e->as<VarRef>() : nullptr;
  return r ? r->var : nullptr;
}

void collect_calls(const Expr& e, std::vector<const OpCall*>& out) {
  if (!e) return;
  auto each = [&](const std::vector<Expr>& es) {
    for (const Expr& x : es) collect_calls(x, out);
  };
  switch (e->kind) {
    case ExprKind::OpCall: {
      auto* c = e->as<OpCall>();
      each(c->args);
      each(c->varargs);
      out.push_back(c);
      break;
    }
    case ExprKind::FuncCall:
      each(e->as<FuncCall>()->args);
      break;
    case ExprKind::List:
      each(e->as<List>()->elements);
      break;
    case ExprKind::Tuple:
      each(e->as<Tuple>()->elements);
      break;
    default:
      break;
  }
}

class Analyzer {
 public:
  Analyzer(const Function& f, DiagnosticEngine& diags, std::vector<std::string>* facts)
      : f_(f), diags_(diags), facts_(facts) {}

  bool run() {
    waiter_ = is_deferred_waiter(*f_);
    if (waiter_ && !check_deferred_budget(*f_, diags_)) reported_ = true;
    EventState s = block(f_->body, EventState{});
    if (s.reachable) {
      SourceSpan end = f_->body.empty() ? f_->span : f_->body.back()->span;
      check_end(s, end);
      record(end, "end of kernel", s);
    }
    if (facts_) {
      facts_->push_back("async events of kernel '" + f_->name + "':");
      for (const auto& [key, line] : lines_) facts_->push_back("  " + line);
    }
    return !reported_;
  }

 private:
  EventState block(const Block& b, EventState s) {
    for (const Stmt& st : b) s = stmt(st, std::move(s));
    return s;
  }

  EventState stmt(const Stmt& st, EventState s) {
    if (!s.reachable) return s;
    switch (st->kind) {
      case StmtKind::Assign:
      case StmtKind::ExprStmt:
        return calls(st, std::move(s));
      case StmtKind::If:
        return if_stmt(*st->as<If>(), std::move(s));
      case StmtKind::For:
        return for_stmt(*st->as<For>(), std::move(s));
      case StmtKind::While:
        return while_stmt(*st->as<While>(), std::move(s));
      case StmtKind::ManualScope:
        return block(st->as<ManualScope>()->body, std::move(s));
      case StmtKind::Return:
        if (waiter_ && !st->as<Return>()->values.empty())
          error(st->span, "deferred waiter '" + f_->name +
                              "' cannot return a value: its task completes after the kernel ends, and the "
                              "kernel is never resumed");
        check_end(s, st->span);
        record(st->span, "return", s);
        return EventState::bottom();
      case StmtKind::Pass:
        return s;
    }
    return s;
  }

  EventState calls(const Stmt& st, EventState s) {
    auto* a = st->as<Assign>();
    Expr value = a ? a->value : st->as<ExprStmt>()->value;
    std::vector<const OpCall*> ops;
    collect_calls(value, ops);
    for (const OpCall* c : ops) {
      bool top = c == value.get();
      Var target = (top && a && a->targets.size() == 1) ? a->targets[0] : nullptr;
      s = op(*c, st, top, target, std::move(s));
    }
    // `e2 = e` makes e2 another name of the same event.
    Var src = var_of(value);
    if (a && src && a->targets.size() == 1 && a->targets[0]) {
      int k = key(src);
      if (s.events.count(k)) alias_[a->targets[0]->id] = k;
    }
    // `t2 = t` and `t2 = pl.store(tile, offsets, t)` make t2 another name of the tensor t.
    const auto* call = value ? value->as<OpCall>() : nullptr;
    if (call && call->op->id == OpId::Store) src = var_of(call->arg("output_tensor"));
    if (a && src && a->targets.size() == 1 && a->targets[0] && src->type && src->type->is_tensor_like())
      tensor_root_[a->targets[0]->id] = root(src.get());
    return s;
  }

  const VarNode* root(const VarNode* v) const {
    auto it = tensor_root_.find(v->id);
    return it == tensor_root_.end() ? v : it->second;
  }

  // The send-buffer check: `c` writes the source region of a put that may be pending, or reads or
  // writes the destination region of such a get (the DMA engine reads or writes it until the wait).
  void buffers(const OpCall& c, const Stmt& st, const Var& target, const EventState& s) {
    if (s.events.empty()) return;
    RootOf root_of = [this](const VarNode* v) { return root(v); };
    for (const GmAccess& a : gm_accesses(c, root_of)) {
      if (!a.region.tensor) continue;
      for (const auto& [id, f] : s.events) {
        if (!f.may_be(kPending) || (f.local_read && !a.write) || !f.local.overlaps(a.region)) continue;
        if (target && key(target) == id) continue;  // the same event issued again: reported as such
        error_pending(c.span.valid() ? c.span : st->span,
                      user_spelling(*c.op) + (a.write ? ": writes " : ": reads ") +
                          (f.local_read ? "the source region " : "the destination region ") +
                          region_str(f.local) + " of " +
                          (f.local_read ? "pld.tensor.put_async" : "pld.tensor.get_async") +
                          " while its event '" + f.name +
                          "' may be outstanding; wait on it with pld.system.wait_async_event first",
                      f);
      }
    }
  }

  static std::string region_str(const GmRegion& r) {
    std::string out = r.tensor->name + "[";
    for (size_t i = 0; i < r.lo.size(); ++i)
      out += (i ? ", " : "") + std::to_string(r.lo[i]) + ":" + std::to_string(r.hi[i]);
    return out + "]";
  }

  EventState op(const OpCall& c, const Stmt& st, bool top, const Var& target, EventState s) {
    if (waiter_) return waiter_op(c, st, top, std::move(s));
    buffers(c, st, target, s);
    if (c.op->has(kAsyncIssue)) return issue(c, st, top, target, std::move(s));
    if (c.op->has(kAsyncWait)) return wait(c, st, std::move(s));
    if (c.op->has(kNotify)) notify(c, st, s);
    return s;
  }

  EventState issue(const OpCall& c, const Stmt& st, bool top, const Var& target, EventState s) {
    std::string name = user_spelling(*c.op);
    if (!target) {
      if (top)
        error(st->span,
              name + ": the event it returns is discarded, so no wait can drain it; assign it (`e = " + name +
                  "(...)`) and wait on it with pld.system.wait_async_event");
      return s;
    }
    alias_.erase(target->id);
    EventFact& f = s.events[target->id];
    if (f.may_be(kPending))
      error_pending(st->span,
                    name + ": event '" + target->name +
                        "' is issued again while its previous transfer may be outstanding; wait on it first",
                    f);
    f = EventFact{target->name, kPending, st->span, {}, var_of(c.arg("session")).get(), {}};
    f.local = transfer_local_region(c, [this](const VarNode* v) { return root(v); });
    f.local_read = c.op->id == OpId::PutAsync || c.op->id == OpId::TilePutAsync;
    record(st->span, "issue " + target->name, s);
    return s;
  }

  EventState wait(const OpCall& c, const Stmt& st, EventState s) {
    Var ev = var_of(c.arg("event"));
    if (!ev) return s;
    auto it = s.events.find(key(ev));
    if (it == s.events.end()) return s;  // not issued in this kernel: nothing to track
    EventFact& f = it->second;
    std::string name = user_spelling(*c.op);
    const VarNode* session = var_of(c.arg("session")).get();
    if (session && f.session && session != f.session) {
      Diagnostic* d =
          error(st->span, name + ": session '" + session->name + "' did not issue event '" + ev->name +
                              "'; wait with the issuing session '" + f.session->name + "'");
      if (d) DiagnosticEngine::note(*d, f.issue, "event '" + ev->name + "' is issued here");
    }
    if (f.may_be(kDrained)) {
      Diagnostic* d =
          error(st->span, name + ": event '" + ev->name +
                              "' may already have been waited on this path; wait on each event once");
      if (d && f.waited.valid()) DiagnosticEngine::note(*d, f.waited, "it is waited here first");
      if (d && f.issue.valid())
        DiagnosticEngine::note(*d, f.issue, "event '" + ev->name + "' is issued here");
    }
    f.states = kDrained;
    f.waited = st->span;
    f.skip_path.clear();
    record(st->span, "wait " + ev->name, s);
    return s;
  }

  // A deferred waiter's ops (async_events_deferred.h): its registrations, scalar bookkeeping, and
  // pl.read only before the first registration on the path.
  EventState waiter_op(const OpCall& c, const Stmt& st, bool top, EventState s) {
    SourceSpan at = c.span.valid() ? c.span : st->span;
    if (c.op->id == OpId::DeferWait) {
      auto* a = st->as<Assign>();
      if (!top || (a && !a->targets.empty()))
        error(at, "pld.system.defer_wait returns nothing and must be used as a standalone statement");
      s.deferred = kRegistered;
      s.registered = at;
      record(st->span, "defer_wait", s);
      return s;
    }
    std::string why;
    if (!allowed_in_waiter(c))
      why = "deferred waiter '" + f_->name + "' is registration-only: " + user_spelling(*c.op) +
            " cannot run in a kernel that calls pld.system.defer_wait, which is never resumed; put it in a "
            "task that depends on the waiter (deps=[wait_tid])";
    else if (c.op->id == OpId::Read && (s.deferred & kRegistered))
      why =
          "pl.read after a pld.system.defer_wait registration: a deferred waiter reads its thresholds "
          "before it registers; whatever the condition guards is read by a task with deps=[wait_tid]";
    if (!why.empty()) {
      Diagnostic* d = error(at, why);
      if (d && s.registered.valid())
        DiagnosticEngine::note(*d, s.registered, "a deferred condition is registered here");
    }
    return s;
  }

  void notify(const OpCall& c, const Stmt& st, const EventState& s) {
    for (const auto& [id, f] : s.events)
      if (f.may_be(kPending))
        error_pending(st->span,
                      user_spelling(*c.op) + ": notify while async event '" + f.name +
                          "' may be outstanding; wait on it with pld.system.wait_async_event first",
                      f);
    record(st->span, "notify", s);
  }

  EventState if_stmt(const If& i, EventState s) {
    EventState t = block(i.then_body, s);
    EventState e = block(i.else_body, s);
    EventState out =
        EventState::join(t, e, {i.span, "on the path where this 'if' is taken, the event is not waited"},
                         {i.span, "on the path where this 'if' is not taken, the event is not waited"});
    record(i.span, "after if", out);
    return out;
  }

  EventState for_stmt(const For& f, EventState entry) {
    auto n = constant_trip_count(f);
    if (n && *n == 0) return entry;
    // The body's effect depends only on the entry state, so nested loops are analysed once per distinct
    // entry state instead of once per iteration of every enclosing loop.
    std::string key = std::to_string(reinterpret_cast<uintptr_t>(&f)) + key_of(entry);
    auto memo = memo_.find(key);
    if (memo != memo_.end()) return memo->second;
    EventState out =
        (n && *n <= kUnrollLimit) ? unrolled(f, entry, *n) : widened(f.body, f.span, entry, n.has_value());
    record(f.span, "after for", out);
    memo_.emplace(std::move(key), out);
    return out;
  }

  // A while loop may run zero times or any number: the widened fixpoint.
  EventState while_stmt(const While& w, EventState entry) {
    std::string key = std::to_string(reinterpret_cast<uintptr_t>(&w)) + key_of(entry);
    auto memo = memo_.find(key);
    if (memo != memo_.end()) return memo->second;
    EventState out = widened(w.body, w.span, entry, false);
    record(w.span, "after while", out);
    memo_.emplace(std::move(key), out);
    return out;
  }

  static std::string key_of(const EventState& s) {
    std::string k = (s.reachable ? "r" : "u") + std::to_string(s.deferred);
    for (const auto& [id, f] : s.events)
      k += ";" + std::to_string(id) + ":" + std::to_string(f.states) + "@" + std::to_string(f.issue.line) +
           "." + std::to_string(f.issue.col) + "/" + std::to_string(reinterpret_cast<uintptr_t>(f.session));
    return k;
  }

  // Applies the body n times; stops early once an iteration changes nothing.
  EventState unrolled(const For& f, EventState s, long long n) {
    for (long long k = 0; k < n; ++k) {
      EventState next = block(f.body, s);
      bool stable = next == s;
      s = std::move(next);
      if (stable) break;
    }
    return s;
  }

  // Fixpoint of head = entry ⊔ body(head). A loop that may run zero times exits with the head (which
  // holds the entry state); one that runs at least once exits with body(head).
  EventState widened(const Block& body, SourceSpan span, const EventState& entry, bool runs_at_least_once) {
    PathStep zero{span, "this loop may run zero times, so its wait does not drain the event"};
    PathStep body_path{span, "a path through this loop's body leaves the event outstanding"};
    EventState head = entry;
    for (int guard = 0; guard < 64; ++guard) {
      EventState next = EventState::join(entry, block(body, head), zero, body_path);
      if (next == head) break;
      head = std::move(next);
    }
    return runs_at_least_once ? block(body, head) : head;
  }

  void check_end(const EventState& s, SourceSpan at) {
    for (const auto& [id, f] : s.events)
      if (f.may_be(kPending))
        error_pending(at,
                      "async event '" + f.name + "' may be outstanding at the end of kernel '" + f_->name +
                          "'; wait on it with pld.system.wait_async_event before the kernel ends",
                      f);
  }

  int key(const Var& v) {
    auto it = alias_.find(v->id);
    return it == alias_.end() ? v->id : it->second;
  }

  // Reports once per location and message: loops are analysed more than once.
  Diagnostic* error(SourceSpan at, const std::string& msg) {
    if (!seen_.insert({at.line, at.col, msg}).second) return nullptr;
    reported_ = true;
    return &diags_.error(at, msg);
  }

  void error_pending(SourceSpan at, const std::string& msg, const EventFact& f) {
    Diagnostic* d = error(at, msg);
    if (!d) return;
    if (f.issue.valid()) DiagnosticEngine::note(*d, f.issue, "event '" + f.name + "' is issued here");
    for (const PathStep& step : f.skip_path) DiagnosticEngine::note(*d, step.span, step.text);
  }

  // The last state seen at a point wins: loops revisit points until their facts are stable.
  void record(SourceSpan at, const std::string& what, const EventState& s) {
    if (!facts_) return;
    // Points on one line keep the order in which the analysis first reached them.
    auto it = order_.insert({{at.line, at.col, what}, static_cast<int>(order_.size())}).first;
    lines_[{at.line, at.col, it->second}] =
        std::to_string(at.line) + ":" + std::to_string(at.col) + " " + what + ": " + s.str();
  }

  const Function& f_;
  DiagnosticEngine& diags_;
  std::vector<std::string>* facts_;
  std::map<int, int> alias_;
  std::map<int, const VarNode*> tensor_root_;  // tensor variable id -> the variable it renames
  std::map<std::string, EventState> memo_;
  std::set<std::tuple<int, int, std::string>> seen_;
  std::map<std::tuple<int, int, std::string>, int> order_;
  std::map<std::tuple<int, int, int>, std::string> lines_;
  bool reported_ = false;
  bool waiter_ = false;  // the kernel calls pld.system.defer_wait
};

}  // namespace

bool check_async_events(const Function& kernel, DiagnosticEngine& diags, std::vector<std::string>* facts) {
  return Analyzer(kernel, diags, facts).run();
}

}  // namespace ptodist::analysis
