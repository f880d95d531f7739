// `with pl.at(level=...):` as PyPTO's parser and its OutlineIncoreScopes / OutlineHierarchyScopes passes
// read it: the body becomes a function of that level and the scope becomes a call of it.
// - level=pl.Level.CORE_GROUP (no role) in an orchestration function: an InCore kernel. With
//   `as tid` or `deps=[...]`, or inside a manual scope, the call is a submit (pl.spmd_submit of one
//   block), so the task id and the explicit edges exist; otherwise a plain kernel call.
// - level=pl.Level.CHIP (role Orchestrator or none) in the host orchestrator: a chip orchestration,
//   called without `device=` (the runtime places such calls round-robin, as PyPTO's does).
// Parameters: the enclosing function's variables the body mentions, in order of first mention.
// Results: the variables the body assigns that the enclosing function reads after the scope.
// Directions follow PyPTO's rule: a tensor the body stores into, assembles into, or passes to a
// callee's Out/InOut parameter is written (Out when the body never reads it, else InOut).
#include <map>
#include <set>

#include "parser_impl.h"
#include "ptodist/ir/functor.h"

namespace ptodist::frontend {

namespace {

// The operand slots an op writes through (pl.store's target, pl.assemble's destination, ...).
bool is_destination_slot(const std::string& name) {
  return name == "output_tensor" || name == "tensor" || name == "target" || name == "dst";
}

// The variables that the dims of type `t` name (`pl.reshape(x, [t_dim, D])` has the dim t_dim).
std::vector<ir::Var> dim_vars(const ir::Type& t) {
  struct Collect : ir::Walker {
    std::vector<ir::Var> vars;
    void visit_expr(const ir::Expr& e) override {
      if (!e) return;
      if (const auto* r = e->as<ir::VarRef>()) vars.push_back(r->var);
      ir::Walker::visit_expr(e);
    }
  } c;
  if (t && t->has_shape())
    for (const ir::Expr& d : t->shape) c.visit_expr(d);
  return c.vars;
}

// Types whose dims name the enclosing function's scalars, rewritten to name the outlined function's
// parameters for them.
class DimParams : public ir::Rewriter {
 public:
  DimParams(ir::Builder& b, const std::map<const ir::VarNode*, ir::Var>& params) : b_(b), params_(params) {}

  ir::Expr rewrite_expr(const ir::Expr& e) override {
    const auto* r = e ? e->as<ir::VarRef>() : nullptr;
    auto it = r ? params_.find(r->var.get()) : params_.end();
    return it != params_.end() ? b_.var_ref(it->second, e->span) : ir::Rewriter::rewrite_expr(e);
  }

  ir::Type type(const ir::Type& t) {
    if (!t || !t->has_shape()) return t;
    auto out = std::make_shared<ir::TypeNode>(*t);
    for (ir::Expr& d : out->shape) d = rewrite_expr(d);
    for (ir::Expr& d : out->valid_shape) d = rewrite_expr(d);
    return out;
  }

 private:
  ir::Builder& b_;
  const std::map<const ir::VarNode*, ir::Var>& params_;
};

// The scalars of the enclosing function that the dims of the captured variables in `outer` name
// (`pl.reshape(x, [t_dim, D])`): parameters too, as PyPTO's outliner passes a shape's variables
// (scope_outline_utils.cpp). Each by the name the enclosing function binds it to (an inlined
// function's variable is renamed); one no longer bound, a module constant, or one whose name another
// parameter has keeps the dim as it was.
std::vector<std::pair<std::string, ir::Var>> dim_params(
    const std::vector<std::pair<std::string, ir::Var>>& outer, const ScopeMap& locals) {
  std::vector<std::pair<std::string, ir::Var>> dims;
  for (const auto& [_, captured] : outer)
    for (const ir::Var& d : dim_vars(captured->type)) {
      const std::string* local = nullptr;
      for (const auto& [name, b] : locals)
        if (b.var == d) local = &name;
      bool taken = !local;
      for (const auto& [name, v] : outer) taken = taken || v == d || name == *local;
      for (const auto& [name, v] : dims) taken = taken || v == d || name == *local;
      if (!taken) dims.emplace_back(*local, d);
    }
  return dims;
}

// Which parameters of an outlined body are read and which are written.
class ParamUse : public ir::Walker {
 public:
  ParamUse(const std::vector<ir::Function>* functions) : functions_(functions) {}
  std::set<const ir::VarNode*> read, written;

  // A returned variable is the function's result, not a read of what it held on entry.
  void visit_stmt(const ir::Stmt& s) override {
    if (!s->isa<ir::Return>()) ir::Walker::visit_stmt(s);
  }
  void visit_expr(const ir::Expr& e) override {
    if (!e) return;
    if (const auto* r = e->as<ir::VarRef>()) read.insert(r->var.get());
    if (const auto* c = e->as<ir::OpCall>()) return visit_op(*c);
    if (const auto* f = e->as<ir::FuncCall>()) {
      visit_args(f->callee, f->args);
      return visit_expr(f->device);
    }
    ir::Walker::visit_expr(e);
  }

 private:
  void visit_op(const ir::OpCall& c) {
    bool writes = c.op->has(ir::kWritesGM) || c.op->has(ir::kWritesRemote);
    for (size_t i = 0; i < c.args.size(); ++i) {
      const auto* r = c.args[i] ? c.args[i]->as<ir::VarRef>() : nullptr;
      // A destination is written, not read: `out = pl.store(t, [0, 0], out)` makes out an Out.
      if (r && writes && i < c.op->params.size() && is_destination_slot(c.op->params[i].name))
        written.insert(r->var.get());
      else
        visit_expr(c.args[i]);
    }
    const bool submit = c.op->id == ir::OpId::SpmdSubmit || c.op->id == ir::OpId::Submit;
    const auto* ref = submit && c.args[0] ? c.args[0]->as<ir::FuncRef>() : nullptr;
    if (ref) return visit_args(ref->callee, c.varargs);
    for (const ir::Expr& a : c.varargs) visit_expr(a);
  }
  // Arguments of a call: the callee's Out parameters are written, its InOut ones read and written.
  void visit_args(const std::string& callee, const std::vector<ir::Expr>& args) {
    const ir::FunctionNode* f = nullptr;
    if (functions_)
      for (const ir::Function& g : *functions_)
        if (g->name == callee) f = g.get();
    for (size_t i = 0; i < args.size(); ++i) {
      const auto* r = args[i] ? args[i]->as<ir::VarRef>() : nullptr;
      ir::Direction d = f && i < f->params.size() ? f->params[i].direction : ir::Direction::In;
      if (r && d != ir::Direction::In) written.insert(r->var.get());
      if (!r || d != ir::Direction::Out) visit_expr(args[i]);
    }
  }
  const std::vector<ir::Function>* functions_;
};

// The variables an outlined body assigns (a parameter the body rebinds keeps its variable).
class AssignedVars : public ir::Walker {
 public:
  std::set<const ir::VarNode*> vars;
  void visit_stmt(const ir::Stmt& s) override {
    if (const auto* a = s->as<ir::Assign>())
      for (const ir::Var& v : a->targets)
        if (v) vars.insert(v.get());
    ir::Walker::visit_stmt(s);
  }
};

bool starts_statement(const std::vector<Token>& tokens, size_t i) {
  TokenKind prev = i == 0 ? TokenKind::Newline : tokens[i - 1].kind;
  return prev == TokenKind::Newline || prev == TokenKind::Indent || prev == TokenKind::Dedent;
}

bool is_attribute(const std::vector<Token>& tokens, size_t i) {
  return i > 0 && tokens[i - 1].kind == TokenKind::Op && tokens[i - 1].text == ".";
}

// `f(name=...)`: a keyword of a call, not a use of the variable `name`.
bool is_call_keyword(const std::vector<Token>& tokens, size_t i) {
  if (i == 0 || i + 1 >= tokens.size()) return false;
  const Token& prev = tokens[i - 1];
  const Token& next = tokens[i + 1];
  return next.kind == TokenKind::Op && next.text == "=" && prev.kind == TokenKind::Op &&
         (prev.text == "(" || prev.text == ",");
}

// True when the first mention of `name` in [from, end) redefines it (`name = ...` or `name: T = ...`
// whose right side does not read it, or `for name in ...`): its value from before is not needed there.
bool first_mention_redefines(const std::vector<Token>& tokens, size_t from, size_t end,
                             const std::string& name) {
  for (size_t i = from; i < end; ++i) {
    if (tokens[i].kind != TokenKind::Name || tokens[i].text != name || is_attribute(tokens, i)) continue;
    if (is_call_keyword(tokens, i)) continue;
    // `for name in ...:` binds it afresh (the bounds after `in` cannot read the loop's own variable).
    if (i > 0 && tokens[i - 1].kind == TokenKind::Name && tokens[i - 1].text == "for") return true;
    if (!starts_statement(tokens, i) || i + 1 >= end) return false;
    const Token& next = tokens[i + 1];
    if (next.kind != TokenKind::Op || (next.text != "=" && next.text != ":")) return false;
    for (size_t j = i + 2; j < end && tokens[j].kind != TokenKind::Newline; ++j)
      if (tokens[j].kind == TokenKind::Name && tokens[j].text == name && !is_attribute(tokens, j))
        return false;
    return true;
  }
  return false;  // not mentioned at all: callers check that first
}

bool mentioned(const std::vector<Token>& tokens, size_t from, size_t end, const std::string& name) {
  for (size_t i = from; i < end; ++i)
    if (tokens[i].kind == TokenKind::Name && tokens[i].text == name && !is_attribute(tokens, i) &&
        !is_call_keyword(tokens, i))
      return true;
  return false;
}

}  // namespace

AtArgs Parser::parse_at_args(const SynExpr& call) {
  AtArgs a;
  static const std::set<std::string> ignored = {"no_dep_args", "dumps", "allow_early_resolve", "windowize"};
  size_t positional = 0;
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& arg = *call.items[i];
    std::string key = arg.keyword;
    if (key.empty()) {
      if (positional >= 2) {
        error(arg.span, "pl.at() takes at most 2 positional arguments (level, role)");
        a.ok = false;
        continue;
      }
      key = positional++ == 0 ? "level" : "role";
    }
    std::string value = canonical(arg).value_or("");
    if (key == "role" && arg.kind == SynKind::None) continue;  // the default
    if (key == "level" || key == "role") {
      std::string prefix = key == "level" ? "pl.Level." : "pl.Role.";
      if (value.rfind(prefix, 0) != 0) {
        error(arg.span, "pl.at(): '" + key + "' must be a " + prefix.substr(0, prefix.size() - 1) +
                            " member such as " + prefix + (key == "level" ? "CORE_GROUP" : "Orchestrator"));
        a.ok = false;
        continue;
      }
      (key == "level" ? a.level : a.role) = value.substr(prefix.size());
    } else if (key == "name_hint") {
      if (arg.kind != SynKind::String) {
        error(arg.span, "pl.at(): 'name_hint' must be a string literal");
        a.ok = false;
      }
      a.name_hint = arg.text;
    } else if (key == "deps") {
      a.deps = &arg;
    } else if (key == "allow_early_resolve") {
      if (arg.kind == SynKind::True) a.early_resolve = &arg;
    } else if (key == "optimizations") {
      a.ok = check_optimizations(arg, "pl.at") && a.ok;
    } else if (!ignored.count(key)) {
      // no_dep_args, dumps, allow_early_resolve and windowize are scheduling, dump and layout hints:
      // they do not change what the program computes.
      error(arg.span, "unknown keyword argument '" + key +
                          "' in pl.at(); expected level, role, optimizations, deps, no_dep_args, dumps, "
                          "allow_early_resolve, name_hint or windowize");
      a.ok = false;
    }
  }
  if (a.level.empty() && a.ok) {
    error(call.span, "pl.at() requires a level, e.g. pl.at(level=pl.Level.CORE_GROUP)");
    a.ok = false;
  }
  return a;
}

// `optimizations=[pl.split(mode), pl.cross_core_slot(slot_num=N)]`: PyPTO's ExpandMixedKernel reads
// them to divide a mixed kernel's cube-vector transfers between the two vector cores and to size the
// cross-core pipe ring (python/pypto/language/optimizations.py). Neither changes what the scope
// computes, so ptodist checks their spelling and runs the scope whole; anything else is an error.
bool Parser::check_optimizations(const SynExpr& list, const std::string& api) {
  if (list.kind != SynKind::List) {
    error(list.span, api + "(): 'optimizations' must be a list, e.g. [pl.split(pl.SplitMode.UP_DOWN)]");
    return false;
  }
  bool ok = true;
  for (const SynExprP& item : list.items) {
    std::string callee = item->kind == SynKind::Call ? canonical(*item->items[0]).value_or("") : "";
    size_t n = item->kind == SynKind::Call ? item->items.size() : 0;
    const SynExpr* first = n > 1 ? item->items[1].get() : nullptr;
    bool good = false;
    if (callee == "pl.split") {
      std::string mode = first ? canonical(*first).value_or("") : "";
      good = n >= 2 && first->keyword.empty() &&
             (mode == "pl.SplitMode.NONE" || mode == "pl.SplitMode.UP_DOWN" ||
              mode == "pl.SplitMode.LEFT_RIGHT");
      for (size_t i = 2; i < n; ++i)
        good = good && item->items[i]->keyword == "slot_num" && item->items[i]->kind == SynKind::Int &&
               item->items[i]->int_value > 0;
    } else if (callee == "pl.cross_core_slot") {
      good = n == 2 && first->keyword == "slot_num" && first->kind == SynKind::Int && first->int_value > 0;
    }
    if (!good) {
      error(item->span, api +
                            "(): each optimization must be pl.split(pl.SplitMode.NONE|UP_DOWN|LEFT_RIGHT) "
                            "or pl.cross_core_slot(slot_num=N) with N a positive integer literal");
      ok = false;
    }
  }
  return ok;
}

// The kind of function `args` outlines to from a function of kind `outer`, or nullopt after an error.
std::optional<ir::FunctionKind> Parser::at_function_kind(const AtArgs& a, const SynExpr& call,
                                                         const Token* as_name, LowerCtx& cx) {
  ir::FunctionKind outer = cx.build.function_kind;
  if (a.level == "CORE_GROUP") {
    if (!a.role.empty()) {
      error(call.span, "pl.at(): role= is not supported with level=pl.Level.CORE_GROUP (an InCore scope)");
      return std::nullopt;
    }
    if (outer != ir::FunctionKind::Orchestration) {
      error(call.span,
            "'with pl.at(level=pl.Level.CORE_GROUP)' outlines a kernel, which only an "
            "orchestration function (or a pl.at(level=pl.Level.CHIP) scope) can call; this is "
            "in the " +
                std::string(ir::function_kind_name(outer)) + " function '" + cx.build.function_name + "'");
      return std::nullopt;
    }
    return ir::FunctionKind::InCore;
  }
  if (a.level == "HOST" && a.role == "SubWorker") {
    error(call.span,
          "inline 'with pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker)' is not supported "
          "(nor in PyPTO); declare a @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)");
    return std::nullopt;
  }
  if (a.level == "CHIP" && (a.role.empty() || a.role == "Orchestrator")) {
    if (outer != ir::FunctionKind::Host) {
      error(call.span,
            "'with pl.at(level=pl.Level.CHIP)' outlines a chip orchestration, which only the host "
            "orchestrator calls; this is in the " +
                std::string(ir::function_kind_name(outer)) + " function '" + cx.build.function_name + "'");
      return std::nullopt;
    }
    if (as_name || a.deps) {
      error(as_name ? as_name->span : a.deps->span,
            "task ids and deps= of a pl.at(level=pl.Level.CHIP) scope are not supported yet");
      return std::nullopt;
    }
    return ir::FunctionKind::Orchestration;
  }
  error(call.span, "'with pl.at(level=pl.Level." + a.level +
                       (a.role.empty() ? "" : ", role=pl.Role." + a.role) +
                       ")' is not supported yet; ptodist outlines pl.Level.CORE_GROUP scopes (in "
                       "orchestration functions) and pl.Level.CHIP scopes (in the host orchestrator)");
  return std::nullopt;
}

std::string Parser::outlined_name(const AtArgs& a, ir::FunctionKind kind, LowerCtx& cx) {
  int n = outline_counter_[cx.build.function_name]++;
  std::string base = !a.name_hint.empty() ? a.name_hint
                     : kind == ir::FunctionKind::InCore
                         ? cx.build.function_name + "_incore_" + std::to_string(n)
                         : cx.build.function_name + "_chip_orch_" + std::to_string(n);
  auto taken = [&](const std::string& s) {
    for (const ir::Function& f : *cx.build.functions)
      if (f->name == s) return true;
    return false;
  };
  if (!taken(base)) return base;
  for (int i = 0;; ++i)
    if (!taken(base + "_" + std::to_string(i))) return base + "_" + std::to_string(i);
}

void Parser::parse_at_scope(ir::Block& out, const SynExpr& call, const Token* as_name, const SourceSpan& span,
                            LowerCtx& cx) {
  AtArgs a = parse_at_args(call);
  std::optional<ir::FunctionKind> kind = a.ok ? at_function_kind(a, call, as_name, cx) : std::nullopt;
  if (!kind || !declared_) {
    skip_scope_body(as_name, cx);
    return;
  }
  OutlinedScope o = outline_scope(outlined_name(a, *kind, cx), *kind, span, cx, nullptr, false);
  check_outlined_waiter(a, *o.fn);
  emit_at_call(out, o.fn, o.captured, o.results, a, as_name, span, cx);
}

// Skips the body of a scope whose header was reported: the names it binds have no value from here on.
void Parser::skip_scope_body(const Token* as_name, LowerCtx& cx) {
  if (as_name) (*cx.locals)[as_name->text] = Binding{Binding::Kind::Local, nullptr, nullptr};
  poison_assigned_names(skip_suite_from(pos_), cx);
  parse_suite_unlowered();
}

OutlinedScope Parser::outline_scope(const std::string& name, ir::FunctionKind kind, const SourceSpan& span,
                                    LowerCtx& cx, const Token* block_index, bool written_params_stay) {
  size_t end = skip_suite_from(pos_);
  OutlinedScope o;
  // Parameters: the enclosing function's variables the body mentions, unless it redefines them first.
  o.fn = std::make_shared<ir::FunctionNode>();
  std::shared_ptr<ir::FunctionNode>& fn = o.fn;
  fn->kind = kind;
  fn->name = name;
  fn->span = span;
  ScopeMap inner_locals;
  std::set<std::string> seen;
  if (block_index) seen.insert(block_index->text);     // bound inside: never a parameter
  std::vector<std::pair<std::string, ir::Var>> outer;  // (name, enclosing variable) per parameter
  for (size_t i = pos_; i < end; ++i) {
    const std::string& name = tokens_[i].text;
    if (tokens_[i].kind != TokenKind::Name || is_attribute(tokens_, i) || is_call_keyword(tokens_, i))
      continue;
    if (!seen.insert(name).second) continue;
    auto it = cx.locals->find(name);
    if (it == cx.locals->end() || !it->second.var || first_mention_redefines(tokens_, pos_, end, name))
      continue;
    outer.emplace_back(name, it->second.var);
  }
  // The dims' scalars come first, so that a printed parameter list names each before its use.
  std::vector<std::pair<std::string, ir::Var>> shape_scalars = dim_params(outer, *cx.locals);
  outer.insert(outer.begin(), shape_scalars.begin(), shape_scalars.end());
  // Scalars first: a tensor parameter's dims then name the outlined function's own copies.
  std::map<const ir::VarNode*, ir::Var> param_of;
  for (const auto& [name, v] : outer)
    if (!v->type || !v->type->has_shape()) param_of[v.get()] = b_->make_var(name, v->type, v->span);
  DimParams dims(*b_, param_of);
  for (const auto& [name, v] : outer)
    if (!param_of.count(v.get())) param_of[v.get()] = b_->make_var(name, dims.type(v->type), v->span);
  for (const auto& [name, v] : outer) {
    fn->params.push_back(ir::Param{param_of[v.get()], ir::Direction::In});
    o.captured.push_back(v);
    inner_locals[name] = Binding{Binding::Kind::Local, param_of[v.get()], nullptr};
  }

  // The body, lowered as the new function's.
  LowerCtx inner = cx;
  inner.locals = &inner_locals;
  inner.build.function_kind = kind;
  inner.build.function_name = fn->name;
  inner.outlined_core_scope = true;
  if (block_index && block_index->text != "_") {
    // The loop form of pl.spmd: the loop variable is the block index, bound before the body.
    ir::Expr idx = b_->op_call(*ir::find_op("pl.tile.get_block_idx"), {}, inner.build, block_index->span);
    auto s = std::make_shared<ir::Assign>();
    s->span = block_index->span;
    s->targets.push_back(bind_local(block_index->text, idx ? idx->type : nullptr, block_index->span, inner));
    s->value = idx;
    if (idx) fn->body.push_back(s);
  }
  {
    ScopedValue<std::vector<LoopCarry*>> no_carries(carries_, {});
    ScopedValue<std::vector<LoopExits*>> no_exits(exits_, {});
    ScopedValue<std::vector<WhileHead*>> no_while_heads(while_heads_, {});
    ScopedValue<int> no_if(if_depth_, 0), no_manual(manual_depth_, 0);
    ir::Block body = parse_suite("'with' header", inner);
    fn->body.insert(fn->body.end(), body.begin(), body.end());
  }

  ParamUse use(cx.build.functions);
  use.visit_block(fn->body);
  std::set<const ir::VarNode*> params;
  for (const ir::Param& p : fn->params) params.insert(p.var.get());
  // Results: what the body assigns and the enclosing function reads afterwards.
  AssignedVars assigned;
  assigned.visit_block(fn->body);
  for (const auto& [name, b] : inner_locals) {
    if (!b.var || !assigned.vars.count(b.var.get()) || !mentioned(tokens_, pos_, fn_body_end_, name) ||
        first_mention_redefines(tokens_, pos_, fn_body_end_, name))
      continue;
    // A tensor the body wrote through is the caller's own buffer: its name keeps the caller's variable.
    if (written_params_stay && params.count(b.var.get()) && use.written.count(b.var.get())) continue;
    if (block_index && name == block_index->text) continue;  // each block's own index, never a result
    o.results.emplace_back(name, b.var);
  }
  auto ret = std::make_shared<ir::Return>();
  ret->span = span;
  for (const auto& [name, v] : o.results) {
    ret->values.push_back(b_->var_ref(v, span));
    fn->return_types.push_back(v->type);
  }
  if (!o.results.empty()) fn->body.push_back(ret);

  for (ir::Param& p : fn->params) {
    bool is_window = p.var->type && p.var->type->kind == ir::TypeKind::DistTensor;
    if (use.written.count(p.var.get()) || is_window)
      p.direction = use.read.count(p.var.get()) || is_window ? ir::Direction::InOut : ir::Direction::Out;
  }
  declared_->push_back(fn);
  outlined_.push_back(fn);
  outlined_parent_[fn->name] = cx.build.function_name;
  return o;
}

// The call that replaces the scope, and the bindings of its results in the enclosing function.
void Parser::emit_at_call(ir::Block& out, const ir::Function& fn, const std::vector<ir::Var>& captured,
                          const std::vector<std::pair<std::string, ir::Var>>& results, const AtArgs& a,
                          const Token* as_name, const SourceSpan& span, LowerCtx& cx) {
  std::vector<ir::CallArg> args;
  bool submit = as_name || a.deps || manual_depth_ > 0;
  if (submit) args.push_back(ir::CallArg{"", b_->func_ref(fn->name, cx.class_style, cx.build, span), span});
  for (const ir::Var& v : captured) args.push_back(ir::CallArg{"", b_->var_ref(v, span), span});
  ir::Expr call;
  if (submit) {
    if (results.size() > 1) {
      error(span,
            "a submitted pl.at(level=pl.Level.CORE_GROUP) scope (with 'as', deps= or in a manual "
            "scope) may give the code after it at most one value; it gives " +
                std::to_string(results.size()));
      for (const auto& [name, v] : results)
        (*cx.locals)[name] = Binding{Binding::Kind::Local, nullptr, nullptr};
      return;
    }
    if (a.deps) {
      ir::Expr deps = lower(*a.deps, cx);
      if (!deps) return;
      args.push_back(ir::CallArg{"deps", deps, a.deps->span});
    }
    call = b_->op_call(*ir::find_op("pl.spmd_submit"), args, cx.build, span);
  } else {
    call = b_->func_call(fn->name, cx.class_style, args, cx.build, span);
  }
  if (!call) return;
  auto s = std::make_shared<ir::Assign>();
  s->span = span;
  s->value = call;
  for (const auto& [name, v] : results) s->targets.push_back(bind_local(name, v->type, span, cx));
  if (submit) {
    if (results.empty()) s->targets.push_back(nullptr);
    s->targets.push_back(
        as_name ? bind_local(as_name->text, ir::simple_type(ir::TypeKind::TaskId), as_name->span, cx)
                : nullptr);
  }
  if (s->targets.empty()) {
    auto e = std::make_shared<ir::ExprStmt>();
    e->span = span;
    e->value = call;
    out.push_back(e);
    return;
  }
  out.push_back(s);
}

}  // namespace ptodist::frontend
