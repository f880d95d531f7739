// specialize: binds factory parameters and folds every compile-time constant.
#include "ptodist/transforms/specialize.h"

#include <optional>

#include "const_fold.h"
#include "ptodist/ir/scalar_eval.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;
using detail::DeepRewriter;

namespace {

// How many statements bind each variable of a function: an assignment target, a loop variable; a
// parameter counts as one too.
void count_definitions(const Block& body, std::map<const VarNode*, int>& defs) {
  for (const Stmt& s : body) {
    if (auto* a = s->as<Assign>())
      for (const Var& v : a->targets)
        if (v) ++defs[v.get()];
    if (auto* f = s->as<For>()) {
      ++defs[f->iv.get()];
      count_definitions(f->body, defs);
    }
    if (auto* w = s->as<While>()) count_definitions(w->body, defs);
    if (auto* i = s->as<If>()) {
      count_definitions(i->then_body, defs);
      count_definitions(i->else_body, defs);
    }
    if (auto* m = s->as<ManualScope>()) count_definitions(m->body, defs);
  }
}

// Substitutes bound constants for their variables and folds what becomes constant, in bodies and in
// the shapes of every type.
class Specializer : public DeepRewriter {
 public:
  Specializer(PassContext& cx, Builder& b) : cx_(cx), b_(b) {}

  void bind(const Var& v, Expr value) { env_[v.get()] = std::move(value); }
  bool failed() const { return failed_; }
  void set_scope(BuildScope s) { scope_ = std::move(s); }

  Expr rewrite_expr(const Expr& e) override {
    if (!e) return e;
    if (auto* r = e->as<VarRef>()) {
      auto it = env_.find(r->var.get());
      if (it != env_.end()) return with_span(it->second, e->span);
    }
    if (auto* o = e->as<OpCall>()) return rewrite_op_call(*o, e);
    if (std::optional<Expr> picked = short_circuit(e)) return *picked;
    Expr folded = detail::fold_constant(rebuild_expr(e), b_);
    if (!folded) failed_ = true;
    return folded;
  }

  Type map_type(const Type& t) override {
    if (!t) return t;
    auto it = type_map_.find(t.get());
    if (it != type_map_.end()) return it->second;
    auto c = std::make_shared<TypeNode>(*t);
    for (Expr& d : c->shape) d = rewrite_expr(d);
    for (Expr& d : c->valid_shape) d = rewrite_expr(d);
    for (Type& el : c->elements) el = map_type(el);
    Type out = c;
    type_map_[t.get()] = out;
    return out;
  }

  // A function's locals bound once (see bind_constant_local); call before rewriting it.
  void set_function(const Function& f) {
    defs_.clear();
    for (const Param& p : f->params) ++defs_[p.var.get()];
    count_definitions(f->body, defs_);
  }

  // Constants a block binds stay bound until its end: the statements after the binding in that block,
  // and the blocks nested in them, are the code it dominates.
  Block rewrite_block(const Block& b) override {
    std::vector<const VarNode*> outer;
    outer.swap(block_locals_);
    Block out = DeepRewriter::rewrite_block(b);
    for (const VarNode* v : block_locals_) env_.erase(v);
    block_locals_.swap(outer);
    return out;
  }

  Block rewrite_stmt(const Stmt& s) override {
    if (auto* a = s->as<Assign>()) {
      Block out = DeepRewriter::rewrite_stmt(s);
      bind_constant_local(*a, out);
      return out;
    }
    if (auto* i = s->as<If>()) {
      // A condition fixed by the factory parameters keeps only the branch it takes, so later analyses
      // do not see paths that cannot run.
      Expr cond = rewrite_expr(i->cond);
      if (detail::is_scalar_constant(cond) && !cond->isa<FloatImm>()) {
        bool taken =
            as_const_int(cond).value_or(0) != 0 || (cond->isa<BoolImm>() && cond->as<BoolImm>()->value);
        return rewrite_block(taken ? i->then_body : i->else_body);
      }
    }
    return DeepRewriter::rewrite_stmt(s);
  }

 private:
  Expr with_span(const Expr& value, SourceSpan span) {
    if (!value || !span.valid()) return value;
    auto c = detail::copy_expr(*value);
    c->span = span;
    return c;
  }

  // Python evaluates `a and b`, `a or b` and `x if c else y` lazily: once `a` or `c` is constant, only
  // the operand taken is specialized, so a branch that cannot run (`n > 0 and k // n`) never fails.
  // Nullopt when the deciding operand is not constant (nor failed).
  std::optional<Expr> short_circuit(const Expr& e) {
    const Expr* decider = nullptr;
    if (auto* o = e->as<BoolOp>()) decider = &o->lhs;
    if (auto* i = e->as<IfExp>()) decider = &i->cond;
    if (!decider) return std::nullopt;
    Expr d = rewrite_expr(*decider);
    if (!d) return Expr{};
    auto v = literal_value(d);
    if (!v) return std::nullopt;
    if (auto* o = e->as<BoolOp>())
      return (o->op == BoolOpKind::And) != v->truthy() ? d : rewrite_expr(o->rhs);
    auto* i = e->as<IfExp>();
    return rewrite_expr(v->truthy() ? i->then_value : i->else_value);
  }

  // `cols = a.shape[1]`: a local that no other statement binds and whose value folds to a constant is
  // that constant where the assignment dominates, so a tile shape written with it is static (PyPTO's
  // parser folds such values too).
  void bind_constant_local(const Assign& original, const Block& rewritten) {
    if (original.targets.size() != 1 || !original.targets[0] || rewritten.size() != 1) return;
    const VarNode* v = original.targets[0].get();
    auto* a = rewritten[0]->as<Assign>();
    if (!a || defs_[v] != 1 || !detail::is_scalar_constant(a->value)) return;
    env_[v] = a->value;
    block_locals_.push_back(v);
  }

  Expr rewrite_op_call(const OpCall& o, const Expr& self) {
    if (o.op->id == OpId::WorldSize) {
      auto ws = cx_.bindings.find("world_size");
      if (ws != cx_.bindings.end()) return b_.int_imm(ws->second, self->span);
    }
    std::vector<Expr> slots = rewrite_exprs(o.args);
    std::vector<Expr> varargs = rewrite_exprs(o.varargs);
    // Rebuilding runs the op's contract again, now on constants: a sync_id or shape that came from a
    // factory parameter is checked here.
    Expr out = b_.op_call_slots(*o.op, std::move(slots), std::move(varargs), scope_, self->span);
    if (!out) failed_ = true;
    return out;
  }

  PassContext& cx_;
  Builder& b_;
  BuildScope scope_;
  std::map<const VarNode*, Expr> env_;
  std::map<const VarNode*, int> defs_;
  std::vector<const VarNode*> block_locals_;  // bound by bind_constant_local in the current block
  std::map<const TypeNode*, Type> type_map_;
  bool failed_ = false;
};

// Binds module constants, factory parameters and factory constants, in that order.
bool bind_factory(const Program& p, PassContext& cx, Builder& b, Specializer& sp) {
  bool ok = true;
  if (cx.module)
    for (const Constant& k : cx.module->constants) sp.bind(k.var, sp.rewrite_expr(k.value));
  for (const FactoryParam& fp : p->factory_params) {
    auto it = cx.bindings.find(fp.var->name);
    if (it != cx.bindings.end()) {
      sp.bind(fp.var, b.int_imm(it->second, fp.var->span));
    } else if (fp.default_value) {
      sp.bind(fp.var, sp.rewrite_expr(fp.default_value));
    } else {
      cx.diags.error(fp.var->span, "factory parameter '" + fp.var->name + "' has no default; pass -D " +
                                       fp.var->name + "=N");
      ok = false;
    }
  }
  for (const Constant& k : p->factory_constants) sp.bind(k.var, sp.rewrite_expr(k.value));
  return ok && !sp.failed();
}

}  // namespace

Program specialize(const Program& p, PassContext& cx) {
  Builder b(cx.diags);
  Specializer sp(cx, b);
  if (!bind_factory(p, cx, b, sp)) return nullptr;

  // Signatures first, so calls and spmd_submit are checked against specialized callee types.
  std::vector<Function> signatures;
  for (const Function& f : p->functions) {
    auto c = std::make_shared<FunctionNode>(*f);
    for (Param& prm : c->params) prm.var = sp.map_var(prm.var);
    for (Type& t : c->return_types) t = sp.map_type(t);
    signatures.push_back(c);
  }
  auto out = std::make_shared<ProgramNode>(*p);
  out->factory_params.clear();
  out->factory_constants.clear();
  out->functions.clear();
  for (const Function& f : p->functions) {
    BuildScope scope;
    scope.function_kind = f->kind;
    scope.function_name = f->name;
    scope.functions = &signatures;
    sp.set_scope(scope);
    sp.set_function(f);
    out->functions.push_back(sp.rewrite_function(f));
  }
  if (sp.failed()) return nullptr;
  return out;
}

}  // namespace ptodist::transforms
