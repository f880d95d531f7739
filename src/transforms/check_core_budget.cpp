// check-core-budget: kernels that synchronise inside one manual_scope must fit the chip together.
#include "ptodist/transforms/check_core_budget.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;

namespace {

// What a kernel body does that decides its core kind and whether it blocks on a peer.
struct KernelTraits : Walker {
  bool cube = false;   // matmul or L0/L1 tiles: runs on a cube (AIC) core
  bool waits = false;  // blocks on a signal
  void visit_expr(const Expr& e) override {
    if (!e) return;
    if (e->type && e->type->kind == TypeKind::Tile && e->type->memory != Memory::Vec) cube = true;
    if (auto* c = e->as<OpCall>()) {
      if (c->op->id == OpId::Matmul || c->op->id == OpId::MatmulAcc) cube = true;
      if (c->op->has(kWait)) waits = true;
    }
    Walker::visit_expr(e);
  }
};

struct Submit {
  const OpCall* call;
  long long cores;
  bool cube;
};

class BudgetChecker {
 public:
  BudgetChecker(PassContext& cx, const Program& p) : cx_(cx), p_(p) {}
  bool ok() const { return ok_; }

  void block(const Block& b) {
    for (const Stmt& s : b) {
      if (auto* m = s->as<ManualScope>())
        scope(*m);
      else if (auto* f = s->as<For>())
        block(f->body);
      else if (auto* w = s->as<While>())
        block(w->body);
      else if (auto* i = s->as<If>()) {
        block(i->then_body);
        block(i->else_body);
      }
    }
  }

 private:
  void scope(const ManualScope& m) {
    std::vector<Submit> submits;
    bool any_waits = false;
    for (const Stmt& s : m.body) {
      const OpCall* c = detail::stmt_op_call(s);
      if (!c || (c->op->id != OpId::SpmdSubmit && c->op->id != OpId::Submit)) continue;
      auto* ref = c->arg("kernel") ? c->arg("kernel")->as<FuncRef>() : nullptr;
      Function k = ref ? p_->find(ref->callee) : nullptr;
      auto cores = c->arg("core_num") ? as_const_int(c->arg("core_num")) : std::optional<long long>(1);
      if (!k || !cores) return;  // a run-time count: the runtime checks it
      KernelTraits t;
      t.visit_block(k->body);
      any_waits = any_waits || t.waits;
      bool cube = k->kind == FunctionKind::AIC || (k->kind == FunctionKind::InCore && t.cube);
      submits.push_back({c, *cores, cube});
    }
    if (submits.size() < 2 || !any_waits) return;
    check_kind(m, submits, true, cx_.profile.cube_cores, "cube (AIC)");
    check_kind(m, submits, false, cx_.profile.vector_cores, "vector (AIV)");
  }

  void check_kind(const ManualScope& m, const std::vector<Submit>& submits, bool cube, long long have,
                  const char* kind) {
    long long need = 0;
    for (const Submit& s : submits)
      if (s.cube == cube) need += s.cores;
    if (need <= have) return;
    ok_ = false;
    Diagnostic& d = cx_.diags.error(
        m.span,
        "the kernels submitted in this pl.manual_scope wait on each other, so they must be resident "
        "together, but they need " +
            std::to_string(need) + " " + kind + " cores and the " + cx_.profile.name + " profile has " +
            std::to_string(have) + "; lower their core_num");
    for (const Submit& s : submits)
      if (s.cube == cube)
        DiagnosticEngine::note(d, s.call->span,
                               "this submit takes " + std::to_string(s.cores) + " " + kind + " cores");
  }

  PassContext& cx_;
  const Program& p_;
  bool ok_ = true;
};

}  // namespace

Program check_core_budget(const Program& p, PassContext& cx) {
  BudgetChecker bc(cx, p);
  for (const Function& f : p->functions)
    if (!is_kernel(f->kind)) bc.block(f->body);
  return bc.ok() ? p : nullptr;
}

}  // namespace ptodist::transforms
