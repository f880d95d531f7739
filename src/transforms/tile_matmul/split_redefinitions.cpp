// split_redefinitions (plan.h): a matmul's result redefined by straight-line code gets a new variable.
#include "../rewrite_util.h"
#include "plan.h"
#include "ptodist/ir/functor.h"

namespace ptodist::transforms::detail::tile_matmul {

using namespace ir;

namespace {

// Renames, from a top-level redefinition on, a matmul's result that straight-line code redefines by
// something else (gate.py's `logits = pl.row_expand_mul(logits, s)` after its split-K loop): the new
// value would be a Vec tile, the accumulator an Acc one, and a variable has one type. The function body
// is not in a loop, so the code after the statement sees only the new variable.
class SplitRedefinitions : public DeepRewriter {
 public:
  SplitRedefinitions(const Program& p, const Function& f) : vars_(p, f) {}

  Function run(const Function& f) {
    auto out = std::make_shared<FunctionNode>(*f);
    out->body.clear();
    for (const Stmt& s : f->body) {
      const auto* a = s->as<Assign>();
      const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
      Var old = c && a->targets.size() == 1 ? a->targets[0] : nullptr;
      bool split =
          old && matmul_results_.count(old.get()) && !is_tensor_matmul(*c) && c->op->id != OpId::CreateTensor;
      Block r = rewrite_stmt(s);  // its value still reads the old variable
      if (split && r.size() == 1) {
        auto renamed = std::static_pointer_cast<Assign>(copy_stmt(*r[0]));
        renamed->targets[0] = vars_.make(old->name, old->type, old->span);
        var_map_[old.get()] = renamed->targets[0];
        r[0] = renamed;
      }
      for (Stmt& x : r) out->body.push_back(std::move(x));
      note_matmuls(s);
    }
    return out;
  }

 private:
  void note_matmuls(const Stmt& s) {
    struct Finder : Walker {
      std::set<const VarNode*>* found = nullptr;
      void visit_stmt(const Stmt& st) override {
        const auto* a = st->as<Assign>();
        const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
        if (c && a->targets.size() == 1 && a->targets[0] && is_tensor_matmul(*c))
          found->insert(a->targets[0].get());
        Walker::visit_stmt(st);
      }
    } finder;
    finder.found = &matmul_results_;
    finder.visit_stmt(s);
  }

  VarFactory vars_;
  std::set<const VarNode*> matmul_results_;
};

}  // namespace

Function split_redefinitions(const Program& p, const Function& f) {
  return SplitRedefinitions(p, f).run(f);
}

}  // namespace ptodist::transforms::detail::tile_matmul
