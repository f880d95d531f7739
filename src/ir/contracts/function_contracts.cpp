// Function-level contracts: one async session per kernel, and no session beside an async prefetch
// (both use the chip's DMA channel group). That sessions stay out of AIC kernels is checked by the
// async_session contract itself, which knows the function kind from its scope.
#include "ptodist/ir/contracts.h"
#include "ptodist/ir/functor.h"

namespace ptodist::ir {

namespace {

struct DmaUsers : Walker {
  std::vector<const OpCall*> sessions;
  std::vector<const OpCall*> prefetches;

  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (auto c = e->as<OpCall>(); c && c->op) {
      if (c->op->has(kSession)) sessions.push_back(c);
      if (c->op->has(kPrefetch)) prefetches.push_back(c);
    }
    Walker::visit_expr(e);
  }
};

}  // namespace

bool check_function_contracts(const FunctionNode& f, DiagnosticEngine& diags) {
  DmaUsers users;
  users.visit_block(f.body);
  bool ok = true;
  const OpCall* first = users.sessions.empty() ? nullptr : users.sessions.front();
  for (size_t i = 1; i < users.sessions.size(); ++i) {
    const OpCall* s = users.sessions[i];
    Diagnostic& d = diags.error(s->span, s->op->spelling + ": kernel '" + f.name +
                                             "' already has an async session; a kernel may hold at most one "
                                             "(reuse the first session for every put_async)");
    DiagnosticEngine::note(d, first->span, "the first async session is created here");
    ok = false;
  }
  if (first && !users.prefetches.empty()) {
    const OpCall* p = users.prefetches.front();
    Diagnostic& d =
        diags.error(p->span, p->op->spelling + ": kernel '" + f.name +
                                 "' also holds an async session; an async prefetch and a session share "
                                 "the DMA channel group, so a kernel may use only one of them");
    DiagnosticEngine::note(d, first->span, "the async session is created here");
    ok = false;
  }
  return ok;
}

}  // namespace ptodist::ir
