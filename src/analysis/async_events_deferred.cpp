// The deferred-waiter contract's structural checks (async_events_deferred.h).
#include "async_events_deferred.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::analysis {

using namespace ir;

namespace {

struct DeferFinder : Walker {
  bool found = false;
  void visit_expr(const Expr& e) override {
    if (!e || found) return;
    if (const auto* c = e->as<OpCall>(); c && c->op->id == OpId::DeferWait) found = true;
    Walker::visit_expr(e);
  }
};

// The most registrations one path through `b` makes, saturated just past the budget (so a huge
// constant trip count cannot overflow); nullopt after an error.
class Budget {
 public:
  explicit Budget(DiagnosticEngine& diags) : diags_(diags) {}

  std::optional<long long> block(const Block& b) {
    long long total = 0;
    for (const Stmt& s : b) {
      auto n = stmt(s);
      if (!n) return std::nullopt;
      total = saturate(total + *n);
    }
    return total;
  }

 private:
  static long long saturate(long long n) {
    return n > kMaxDeferredConditions ? kMaxDeferredConditions + 1 : n;
  }

  std::optional<long long> stmt(const Stmt& s) {
    if (auto* i = s->as<If>()) {
      auto t = block(i->then_body), e = t ? block(i->else_body) : std::nullopt;
      if (!e) return std::nullopt;
      return std::max(*t, *e);
    }
    if (auto* f = s->as<For>()) return loop(*f);
    if (auto* w = s->as<While>()) return while_loop(*w);
    if (auto* m = s->as<ManualScope>()) return block(m->body);
    DeferFinder finder;
    finder.visit_stmt(s);
    return finder.found ? 1 : 0;
  }

  std::optional<long long> loop(const For& f) {
    auto body = block(f.body);
    if (!body || *body == 0) return body;  // a loop that registers nothing needs no known trip count
    auto n = constant_trip_count(f);
    if (!n) {
      diags_.error(f.span,
                   "pld.system.defer_wait: a loop that registers deferred conditions needs a constant trip "
                   "count, so that the waiter's budget of " +
                       std::to_string(kMaxDeferredConditions) + " conditions can be proved");
      return std::nullopt;
    }
    return *n == 0 ? 0
                   : saturate(*body > kMaxDeferredConditions / *n ? kMaxDeferredConditions + 1 : *body * *n);
  }

  // A while loop has no trip count to prove the budget with.
  std::optional<long long> while_loop(const While& w) {
    auto body = block(w.body);
    if (!body || *body == 0) return body;
    diags_.error(w.span,
                 "pld.system.defer_wait: a while loop cannot register deferred conditions (the waiter's "
                 "budget of " +
                     std::to_string(kMaxDeferredConditions) +
                     " conditions needs a constant trip count); use a counted loop");
    return std::nullopt;
  }

  DiagnosticEngine& diags_;
};

}  // namespace

bool is_deferred_waiter(const FunctionNode& kernel) {
  DeferFinder finder;
  for (const Stmt& s : kernel.body) finder.visit_stmt(s);
  return finder.found;
}

bool allowed_in_waiter(const OpCall& c) {
  if (c.op->id == OpId::DeferWait || c.op->id == OpId::Read) return true;
  if (c.op->effects != kPure) return false;
  return c.type && (c.type->kind == TypeKind::Scalar || c.type->kind == TypeKind::CommCtx);
}

bool check_deferred_budget(const FunctionNode& kernel, DiagnosticEngine& diags) {
  auto n = Budget(diags).block(kernel.body);
  if (!n) return false;
  if (*n <= kMaxDeferredConditions) return true;
  diags.error(kernel.span,
              "deferred waiter '" + kernel.name + "' may register more than " +
                  std::to_string(kMaxDeferredConditions) +
                  " conditions (pld.system.defer_wait) on one path; PyPTO's runtime takes at most " +
                  std::to_string(kMaxDeferredConditions) + " per task");
  return false;
}

}  // namespace ptodist::analysis
