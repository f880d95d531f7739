// Where a deferred waiter (a kernel that calls pld.system.defer_wait) may come from, as PyPTO's
// ExpandMixedKernel audit rules (src/ir/transforms/expand_mixed_kernel_pass.cpp in hw-native-sys/pypto):
// - only from a task-level `with pl.at(level=pl.Level.CORE_GROUP)` scope of an orchestration function:
//   PyPTO's outliner marks that function as a waiter and validates its single-block launch; a kernel
//   declared with @pl.function(type=InCore|AIV) or @pl.jit.incore that calls defer_wait bypasses that
//   contract and is rejected;
// - the scope may not say `allow_early_resolve=True`: Simpler could then pre-stage the waiter's
//   consumers before its counter-backed task id completes, so `deps=[wait_tid]` would no longer
//   gate them.
// The body's own contract (registration-only, at most 64 conditions) is check-async-events'.
#include "parser_impl.h"
#include "ptodist/ir/functor.h"

namespace ptodist::frontend {

namespace {

// The first pld.system.defer_wait in a body, in program order.
class FirstDeferWait : public ir::Walker {
 public:
  const ir::OpCall* found = nullptr;
  void visit_expr(const ir::Expr& e) override {
    if (found || !e) return;  // optional operands are null
    if (auto* c = e->as<ir::OpCall>(); c && c->op->id == ir::OpId::DeferWait) {
      found = c;
      return;
    }
    ir::Walker::visit_expr(e);
  }
};

const ir::OpCall* first_defer_wait(const ir::FunctionNode& fn) {
  FirstDeferWait finder;
  finder.visit_block(fn.body);
  return finder.found;
}

}  // namespace

void Parser::check_outlined_waiter(const AtArgs& a, const ir::FunctionNode& fn) {
  if (!a.early_resolve || !first_defer_wait(fn)) return;
  error(a.early_resolve->span,
        "deferred waiter '" + fn.name +
            "' cannot use allow_early_resolve=True: its task completes only once its pld.system.defer_wait "
            "conditions hold, and an early-resolved task would let the tasks that depend on it start "
            "before; drop the flag (PyPTO's waiter contract)");
}

void Parser::check_declared_waiter(const ir::FunctionNode& fn) {
  if (!ir::is_kernel(fn.kind)) return;  // elsewhere the op's own contract (in a kernel only) reports it
  const ir::OpCall* c = first_defer_wait(fn);
  if (!c) return;
  error(c->span, "pld.system.defer_wait in function '" + fn.name +
                     "' bypasses the deferred-waiter task contract: a waiter is the body of a task-level "
                     "'with pl.at(level=pl.Level.CORE_GROUP) as wait_tid:' scope in an orchestration "
                     "function, and a later consumer takes deps=[wait_tid] (PyPTO rejects a declared "
                     "InCore/AIV kernel that calls it)");
}

}  // namespace ptodist::frontend
