// Program well-formedness: definite assignment over structured control flow, one type per variable,
// return values against annotations, plus the expression checks of verifier_expr.cpp.
#include "ptodist/ir/verifier.h"

#include <algorithm>

#include "call_check.h"
#include "ptodist/ir/contracts.h"
#include "verifier_internal.h"

namespace ptodist::ir {

namespace detail {

DefSet DefSet::join(const DefSet& a, const DefSet& b) {
  if (a.unreachable) return b;
  if (b.unreachable) return a;
  DefSet out;
  std::set_intersection(a.vars.begin(), a.vars.end(), b.vars.begin(), b.vars.end(),
                        std::inserter(out.vars, out.vars.end()));
  return out;
}

namespace {

// True when the loop certainly runs at least once, so what its body defines is defined after it.
bool runs_at_least_once(const For& f) {
  auto start = f.start ? as_const_int(f.start) : std::optional<long long>(0);
  auto stop = as_const_int(f.stop);
  auto step = f.step ? as_const_int(f.step) : std::optional<long long>(1);
  if (!start || !stop || !step || *step == 0) return false;
  return *step > 0 ? *start < *stop : *start > *stop;
}

}  // namespace

FunctionVerifier::FunctionVerifier(const ProgramNode& program, const FunctionNode& fn,
                                   const std::map<const VarNode*, std::string>& owners,
                                   DiagnosticEngine& diags)
    : program_(program), fn_(fn), owners_(owners), diags_(diags) {
  scope_.function_kind = fn.kind;
  scope_.function_name = fn.name;
  scope_.functions = &program.functions;
}

void FunctionVerifier::collect_defs(const Block& b, std::set<const VarNode*>& out) {
  for (const Stmt& s : b) {
    if (!s) continue;
    if (auto a = s->as<Assign>()) {
      for (const Var& v : a->targets)
        if (v) out.insert(v.get());
    } else if (auto f = s->as<For>()) {
      if (f->iv) out.insert(f->iv.get());
      collect_defs(f->body, out);
    } else if (auto w = s->as<While>()) {
      collect_defs(w->body, out);
    } else if (auto i = s->as<If>()) {
      collect_defs(i->then_body, out);
      collect_defs(i->else_body, out);
    } else if (auto m = s->as<ManualScope>()) {
      collect_defs(m->body, out);
    }
  }
}

void FunctionVerifier::run() {
  DefSet defs;
  for (const Param& p : fn_.params) {
    if (!p.var) {
      diags_.error(fn_.span, "function '" + fn_.name + "' has a parameter without a name");
      continue;
    }
    locals_.insert(p.var.get());
    defs.vars.insert(p.var.get());
  }
  collect_defs(fn_.body, locals_);
  check_block(fn_.body, defs);
  check_function_contracts(fn_, diags_);
}

void FunctionVerifier::check_block(const Block& b, DefSet& defs) {
  for (const Stmt& s : b) check_stmt(s, defs);
}

void FunctionVerifier::check_stmt(const Stmt& s, DefSet& defs) {
  if (!s) {
    diags_.error(fn_.span, "function '" + fn_.name + "' contains an empty statement slot");
    return;
  }
  switch (s->kind) {
    case StmtKind::Assign:
      check_assign(*s->as<Assign>(), defs);
      break;
    case StmtKind::ExprStmt:
      check_expr(s->as<ExprStmt>()->value, defs);
      break;
    case StmtKind::For:
      check_for(*s->as<For>(), defs);
      break;
    case StmtKind::While:
      check_while(*s->as<While>(), defs);
      break;
    case StmtKind::If: {
      auto i = s->as<If>();
      check_expr(i->cond, defs);
      DefSet then_defs = defs, else_defs = defs;
      check_block(i->then_body, then_defs);
      check_block(i->else_body, else_defs);
      defs = DefSet::join(then_defs, else_defs);
      break;
    }
    case StmtKind::ManualScope:
      check_block(s->as<ManualScope>()->body, defs);
      break;
    case StmtKind::Return:
      check_return(*s->as<Return>(), defs);
      break;
    case StmtKind::Pass:
      break;
  }
}

void FunctionVerifier::check_assign(const Assign& a, DefSet& defs) {
  check_expr(a.value, defs);
  SourceSpan span = where(a.span);
  Type vt = a.value ? a.value->type : nullptr;
  if (a.targets.size() > 1 && vt) {
    if (vt->kind != TypeKind::Tuple || vt->elements.size() != a.targets.size()) {
      diags_.error(span, "cannot unpack " + type_str(vt) + " into " + std::to_string(a.targets.size()) +
                             " targets; the value must be a tuple of exactly that many results");
    } else {
      for (size_t i = 0; i < a.targets.size(); ++i) check_binding(a.targets[i], vt->elements[i], span);
    }
  } else if (a.targets.size() == 1) {
    check_binding(a.targets[0], vt, span);
    if (a.annotation && a.targets[0] && !arg_type_compatible(a.annotation, a.targets[0]->type))
      diags_.error(span, "annotation " + type_str(a.annotation) + " of '" + a.targets[0]->name +
                             "' does not match its type " + type_str(a.targets[0]->type));
  } else if (a.targets.empty()) {
    diags_.error(span, "assignment without a target");
  }
  for (const Var& v : a.targets)
    if (v) defs.vars.insert(v.get());
}

// A variable keeps the type of its first definition; every later binding must fit it.
void FunctionVerifier::check_binding(const Var& v, const Type& value_type, const SourceSpan& span) {
  if (!v || !value_type || !v->type) return;
  if (value_type->kind == TypeKind::None) {
    diags_.error(span, "'" + v->name + "' is assigned a call that returns nothing");
    return;
  }
  if (arg_type_compatible(value_type, v->type)) return;
  diags_.error(span, "'" + v->name + "' has type " + type_str(v->type) +
                         " and cannot be rebound to a value of type " + type_str(value_type) +
                         "; use a new name for the new value");
}

void FunctionVerifier::check_loop_bound(const Expr& e, const char* what, const DefSet& defs) {
  if (!e) return;
  check_expr(e, defs);
  if (e->type && (e->type->kind != TypeKind::Scalar || !dtype_is_int(e->type->dtype)))
    diags_.error(where(e->span),
                 std::string("loop ") + what + " must be an integer scalar, got " + type_str(e->type));
}

void FunctionVerifier::check_for(const For& f, DefSet& defs) {
  if (!f.stop) diags_.error(where(f.span), "loop without a stop bound");
  check_loop_bound(f.start, "start", defs);
  check_loop_bound(f.stop, "stop", defs);
  check_loop_bound(f.step, "step", defs);
  check_loop_bound(f.stage, "stage", defs);
  if (auto step = f.step ? as_const_int(f.step) : std::nullopt; step && *step == 0)
    diags_.error(where(f.step->span), "loop step must not be zero");
  DefSet body = defs;
  if (f.iv) body.vars.insert(f.iv.get());
  // A pl.split_aiv region: the contracts of the ops inside see its mode.
  const int outer_mode = scope_.split_aiv_mode;
  if (f.loop_kind == LoopKind::SplitAiv) scope_.split_aiv_mode = f.split_mode;
  check_block(f.body, body);
  scope_.split_aiv_mode = outer_mode;
  // The loop may run zero times unless its bounds say otherwise; Python keeps the loop variable and
  // the body's names after a loop that ran, so they stay defined then.
  if (runs_at_least_once(f)) defs = body;
}

// The condition is evaluated before each iteration, the first included, so it reads only what is defined
// before the loop; the body may run zero times, so what it defines is not defined after it.
void FunctionVerifier::check_while(const While& w, DefSet& defs) {
  if (!w.cond) {
    diags_.error(where(w.span), "while loop without a condition");
  } else {
    check_expr(w.cond, defs);
    const Type& t = w.cond->type;
    if (t && (t->kind != TypeKind::Scalar || !(dtype_is_int(t->dtype) || t->dtype == DType::BOOL)))
      diags_.error(where(w.cond->span),
                   "while condition must be a bool or integer scalar, got " + type_str(t));
  }
  DefSet body = defs;
  check_block(w.body, body);
}

void FunctionVerifier::check_return(const Return& r, DefSet& defs) {
  for (const Expr& v : r.values) check_expr(v, defs);
  defs.unreachable = true;
  const auto& expected = fn_.return_types;
  if (expected.empty()) return;
  std::vector<Type> got;
  for (const Expr& v : r.values) got.push_back(v ? v->type : nullptr);
  // `return a, b` may also arrive as one tuple value.
  if (got.size() == 1 && got[0] && got[0]->kind == TypeKind::Tuple && expected.size() > 1)
    got = got[0]->elements;
  SourceSpan span = where(r.span);
  if (got.size() != expected.size()) {
    diags_.error(span, "'" + fn_.name + "' returns " + std::to_string(got.size()) + " value" +
                           (got.size() == 1 ? "" : "s") + " but its annotation declares " +
                           std::to_string(expected.size()));
    return;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (arg_type_compatible(got[i], expected[i])) continue;
    diags_.error(span, "return value " + std::to_string(i + 1) + " of '" + fn_.name + "' has type " +
                           type_str(got[i]) + " but the annotation says " + type_str(expected[i]));
  }
}

}  // namespace detail

bool verify_program(const Program& p, DiagnosticEngine& diags) {
  if (!p) return true;
  int before = diags.error_count();
  std::map<const VarNode*, std::string> owners;
  std::set<std::string> names;
  for (const Function& f : p->functions) {
    if (!f) {
      diags.error(p->span, "program '" + p->name + "' has an empty function slot");
      continue;
    }
    if (!names.insert(f->name).second)
      diags.error(f->span, "function '" + f->name + "' is defined twice in program '" + p->name + "'");
    std::set<const VarNode*> defs;
    for (const Param& prm : f->params)
      if (prm.var) defs.insert(prm.var.get());
    detail::FunctionVerifier::collect_defs(f->body, defs);
    for (const VarNode* v : defs) owners.emplace(v, f->name);
  }
  for (const Function& f : p->functions)
    if (f) detail::FunctionVerifier(*p, *f, owners, diags).run();
  detail::check_call_cycles(*p, diags);
  return diags.error_count() == before;
}

}  // namespace ptodist::ir
