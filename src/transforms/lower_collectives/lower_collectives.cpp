// lower-collectives: rewrites every pld.tensor collective statement of a kernel into ordinary ops
// (put / get / remote_load / load / store / tile reductions / notify / wait), so check mode, the fence
// pass and the PTO emitter see nothing else; the call's target variable is rebound to the window that
// holds the result (`x = pld.tensor.allreduce(x, sig)`).
#include "ptodist/transforms/lower_collectives.h"

#include "host.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::transforms {

using namespace ir;
using namespace collectives;

namespace {

Expr lower_one(Emitter& e, const OpCall& c, Block& out) {
  e.at(c);
  switch (c.op->id) {
    case OpId::Barrier:
      return lower_barrier(e, c, out);
    case OpId::Broadcast:
      return lower_broadcast(e, c, out);
    case OpId::AllGather:
      return lower_allgather(e, c, out);
    case OpId::ReduceScatter:
      return lower_reduce_scatter(e, c, out);
    case OpId::AllReduce:
      return lower_allreduce(e, c, out);
    case OpId::AllToAll:
      return lower_all_to_all(e, c, out);
    case OpId::AllToAllV:
      return lower_all_to_all_v(e, c, out);
    default:
      return nullptr;
  }
}

// `x = coll(...)` or `coll(...)`: the lowered statements, then `x = <result window>`.
Block lower_stmt(Emitter& e, const Stmt& s) {
  const OpCall* c = detail::stmt_op_call(s);
  if (!c || !is_collective(c->op->id)) return {s};
  Block out;
  Expr result = lower_one(e, *c, out);
  if (!result || e.failed()) {
    e.fail();
    return {};
  }
  if (const auto* a = s->as<Assign>(); a && a->targets.size() == 1 && a->targets[0]) {
    Var v = detail::as_var(result);
    if (!v || v->id != a->targets[0]->id) out.push_back(detail::make_assign(a->targets[0], result, s->span));
  }
  return out;
}

// A collective nested in an expression (`return pld.tensor.barrier(sig)`, an argument) has no
// statement to expand into: a located error rather than an op the runtime cannot run.
struct NestedCollectives : Walker {
  DiagnosticEngine& diags;
  bool found = false;
  explicit NestedCollectives(DiagnosticEngine& d) : diags(d) {}
  void visit_expr(const Expr& e) override {
    if (const auto* c = e ? e->as<OpCall>() : nullptr; c && c->op && is_collective(c->op->id)) {
      diags.error(c->span, c->op->spelling + ": a collective must be a statement of its own (`x = " +
                               c->op->spelling + "(...)` or a bare call), not part of another expression");
      found = true;
    }
    Walker::visit_expr(e);
  }
};

}  // namespace

Program lower_collectives(const Program& host_level, PassContext& cx) {
  Program p = lower_host_collectives(host_level, cx);
  if (!p) return nullptr;
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    Emitter e(cx, p, f);
    Block body = detail::map_blocks(f->body, [&](const Stmt& s) { return lower_stmt(e, s); });
    if (e.failed()) return nullptr;
    if (Stmt session = e.session_stmt()) body.insert(body.begin(), session);
    Function lowered = detail::with_body(f, std::move(body));
    NestedCollectives nested(cx.diags);
    nested.visit_function(lowered);
    return nested.found ? nullptr : lowered;
  });
}

}  // namespace ptodist::transforms
