// Data that crosses a mixed kernel's halves through GM (side_body.h, check_gm_handoffs): one half
// writes a tensor the other reads. After the split the two run on different cores with nothing
// ordering them; PyPTO fences the simplest such pair with a pipe handshake and leaves the others
// racing, ptodist reports every one.
#include <map>

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "side_body.h"

namespace ptodist::transforms::mixed {

using namespace ir;

namespace {

bool is_tensor(const Expr& e) {
  return e && e->type && e->type->is_tensor_like();
}

// The GM tensors a half reads and writes, each by the kernel parameter (or local tensor) it views.
class GmAccesses : public Walker {
 public:
  std::map<const VarNode*, const ExprNode*> reads, writes;  // root -> first access

  void visit_stmt(const Stmt& s) override {
    // `v = pl.slice(t, ...)` and other views: v's accesses are t's.
    if (const auto* a = s->as<Assign>(); a && a->targets.size() == 1 && a->targets[0] &&
                                         a->targets[0]->type && a->targets[0]->type->is_tensor_like()) {
      if (const auto* c = a->value ? a->value->as<OpCall>() : nullptr) {
        for (const Expr& arg : c->args)
          if (Var v = is_tensor(arg) ? detail::as_var(arg) : nullptr) {
            root_[a->targets[0].get()] = root(v.get());
            break;
          }
      }
    }
    Walker::visit_stmt(s);
  }
  void visit_expr(const Expr& e) override {
    if (const auto* c = e ? e->as<OpCall>() : nullptr) note(*c);
    Walker::visit_expr(e);
  }

 private:
  const VarNode* root(const VarNode* v) const {
    auto it = root_.find(v);
    return it == root_.end() ? v : it->second;
  }
  void note(const OpCall& c) {
    const bool reads_gm = c.op->has(kReadsGM), writes_gm = c.op->has(kWritesGM);
    if (!reads_gm && !writes_gm) return;
    // The operand an op writes; the others it reads.
    const Expr* written = nullptr;
    for (const char* slot : {"output_tensor", "dst", "target"})
      if (c.op->param_index(slot) >= 0 && is_tensor(c.arg(slot))) written = &c.arg(slot);
    for (const Expr& arg : c.args) {
      Var v = is_tensor(arg) ? detail::as_var(arg) : nullptr;
      if (!v) continue;
      bool is_written = writes_gm && (!written || written == &arg);
      auto& into = is_written ? writes : reads;
      into.emplace(root(v.get()), arg.get());
    }
  }
  std::map<const VarNode*, const VarNode*> root_;
};

// The first tensor one half writes and the other reads, or null.
const ExprNode* crossing(const GmAccesses& writer, const GmAccesses& reader) {
  for (const auto& [root, access] : reader.reads)
    if (writer.writes.count(root)) return access;
  return nullptr;
}

}  // namespace

bool check_gm_handoffs(const Function& aic, const Function& aiv, DiagnosticEngine& diags) {
  GmAccesses cube, vector;
  cube.visit_block(aic->body);
  vector.visit_block(aiv->body);
  for (auto [read, reader, writer] : {std::tuple{crossing(cube, vector), "vector (AIV)", "cube (AIC)"},
                                      std::tuple{crossing(vector, cube), "cube (AIC)", "vector (AIV)"}}) {
    if (!read) continue;
    const auto* ref = read->as<VarRef>();
    diags.error(read->span,
                std::string("expand-mixed-kernel: the ") + reader + " half reads '" +
                    (ref ? ref->var->name : "?") + "', which the " + writer +
                    " half writes; after the split they run on different cores and nothing orders the two. "
                    "Hand the data over as a tile with pl.move, or compute it in a kernel of its own");
    return false;
  }
  return true;
}

}  // namespace ptodist::transforms::mixed
