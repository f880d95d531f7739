// `pl.spmd(N)` scopes as PyPTO's parser reads them (python/pypto/language/parser/ast_parser.py,
// docs/en/dev/language/01-statements.md "pl.spmd multi-block dispatch"), built on what ptodist already
// has: the body is outlined like a `pl.at(level=pl.Level.CORE_GROUP)` scope and the scope becomes a
// `pl.spmd_submit(kernel, ..., core_num=N)`, so N blocks run it, each with its own
// `pl.tile.get_block_idx()`.
// - `for i in pl.spmd(N):` the loop variable is the block index; the body is outlined.
// - `with pl.spmd(N):` an inline body (it reads `get_block_idx`) is outlined; a dispatch body (it calls
//   one kernel) submits that kernel on N blocks in place; a body that does neither is rejected (every
//   block would do the same work), and so is a dispatch body that calls two kernels.
// - a sole `with pl.at(level=pl.Level.CORE_GROUP, ...):` statement in the body is the kernel itself.
// - `with pl.spmd(N, deps=[...]) as tid:` also binds the launch's task id; deps= needs `as tid`.
// A tensor the body writes through stays the caller's variable (all blocks write the one buffer); any
// other value the body assigns and the code after it reads is an error (each block has its own).
#include "parser_impl.h"
#include "ptodist/ir/functor.h"

namespace ptodist::frontend {

namespace {

bool is_name_call(const std::vector<Token>& t, size_t i) {
  return t[i].kind == TokenKind::Name && i + 1 < t.size() && t[i + 1].kind == TokenKind::Op &&
         t[i + 1].text == "(";
}

bool after_dot(const std::vector<Token>& t, size_t i) {
  return i > 0 && t[i - 1].kind == TokenKind::Op && t[i - 1].text == ".";
}

// The kernel calls a body holds, as statements or nested anywhere in them.
class KernelCalls : public ir::Walker {
 public:
  explicit KernelCalls(const std::vector<ir::Function>* functions) : functions_(functions) {}
  std::vector<const ir::FuncCall*> found;
  void visit_expr(const ir::Expr& e) override {
    if (!e) return;
    if (const auto* c = e->as<ir::FuncCall>(); c && functions_)
      for (const ir::Function& f : *functions_)
        if (f->name == c->callee && ir::is_kernel(f->kind)) found.push_back(c);
    ir::Walker::visit_expr(e);
  }

 private:
  const std::vector<ir::Function>* functions_;
};

const char* const kUsage =
    "use 'for i in pl.spmd(n):', 'with pl.spmd(n):' with a body that reads pl.tile.get_block_idx() or "
    "calls one kernel, or 'with pl.spmd(n, deps=[...]) as tid:'";

}  // namespace

SpmdArgs Parser::parse_spmd_args(const SynExpr& call, bool allow_deps, LowerCtx& cx) {
  SpmdArgs a;
  auto bad = [&](const SourceSpan& span, const std::string& message) {
    error(span, message);
    a.ok = false;
  };
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& arg = *call.items[i];
    const std::string& key = arg.keyword;
    if (arg.kind == SynKind::Star) {
      bad(arg.span,
          "pl.spmd() does not accept *args or **kwargs; pass core_num (positional) and the "
          "keywords explicitly");
    } else if (key.empty() || key == "core_num") {
      if (key.empty() && i > 1)
        bad(arg.span, "pl.spmd() accepts at most one positional argument (core_num)");
      else if (a.core_num)
        bad(arg.span, "pl.spmd() got multiple values for argument 'core_num'");
      else
        a.core_num = &arg;
    } else if (key == "name_hint") {
      if (arg.kind != SynKind::String) bad(arg.span, "pl.spmd(): 'name_hint' must be a string literal");
      a.name_hint = arg.text;
    } else if (key == "sync_start" || key == "allow_early_resolve") {
      // Launch hints (all blocks start together; consumers may be staged early): neither changes what
      // the blocks compute, and the blocks run as those of any pl.spmd_submit.
      if (arg.kind != SynKind::True && arg.kind != SynKind::False)
        bad(arg.span, key + " must be a boolean literal (True/False)");
      else if (key == "allow_early_resolve" && arg.kind == SynKind::True && cluster_depth_ > 0)
        bad(arg.span,
            "pl.spmd(..., allow_early_resolve=True) cannot be nested inside pl.cluster(): the cluster is "
            "dispatched as one group task, so the early-dispatch hint would be lost; use a standalone "
            "'with pl.spmd(..., allow_early_resolve=True):'");
    } else if (key == "optimizations") {
      a.ok = check_optimizations(arg, "pl.spmd") && a.ok;
    } else if (key == "deps") {
      if (!allow_deps)
        bad(arg.span,
            "pl.spmd() does not accept 'deps=' here; use 'with pl.spmd(n, deps=[...]) as tid:' "
            "(the with-form) or 'out, tid = pl.spmd_submit(..., deps=[...])'");
      a.deps = &arg;
    } else if (key == "predicate") {
      bad(arg.span,
          "pl.spmd(predicate=...) is not supported yet (a dispatch predicate that skips the "
          "launch when false)");
    } else {
      bad(arg.span, "pl.spmd() got unexpected keyword argument '" + key +
                        "'; supported keywords: 'sync_start', 'name_hint', 'optimizations', " +
                        (allow_deps ? "'deps', " : "") + "'allow_early_resolve', 'predicate'");
    }
  }
  if (!a.core_num && a.ok) bad(call.span, "pl.spmd() requires core_num (first positional argument)");
  if (a.ok) a.ok = spmd_allowed_here(call, cx) && lower_spmd_launch(a, cx);
  return a;
}

// The block count and the deps, lowered where the scope stands (before its body).
bool Parser::lower_spmd_launch(SpmdArgs& a, LowerCtx& cx) {
  a.core_num_value = lower(*a.core_num, cx);
  if (a.deps) a.deps_value = lower(*a.deps, cx);
  if (!a.core_num_value || (a.deps && !a.deps_value)) return false;
  const ir::Type& t = a.core_num_value->type;
  if (!t || t->kind != ir::TypeKind::Scalar || !ir::dtype_is_int(t->dtype)) {
    error(a.core_num->span, "pl.spmd(): core_num must be an integer expression, got " + ir::type_str(t));
    return false;
  }
  if (auto n = ir::as_const_int(a.core_num_value); n && *n <= 0) {
    error(a.core_num->span, "pl.spmd(): core_num must be a positive integer, got " + std::to_string(*n));
    return false;
  }
  return true;
}

// pl.spmd launches kernels, which only an orchestration function can do.
bool Parser::spmd_allowed_here(const SynExpr& call, LowerCtx& cx) {
  if (cx.build.function_kind == ir::FunctionKind::Orchestration) return true;
  error(call.span,
        "pl.spmd(...) launches a kernel on several blocks, which only an orchestration "
        "function (or a pl.at(level=pl.Level.CHIP) scope) can do; this is in the " +
            std::string(ir::function_kind_name(cx.build.function_kind)) + " function '" +
            cx.build.function_name + "'");
  return false;
}

void Parser::parse_spmd_for(ir::Block& out, const SynExpr& call, const Token& index, const SourceSpan& span,
                            LowerCtx& cx) {
  static const std::set<std::string> loop_only = {"init_values", "chunk", "chunk_policy",
                                                  "attrs",       "step",  "stage"};
  bool ok = true;
  for (size_t i = 1; i < call.items.size(); ++i)
    if (loop_only.count(call.items[i]->keyword)) {
      error(call.items[i]->span, "pl.spmd() loop form does not accept '" + call.items[i]->keyword +
                                     "='; the loop variable is the block index (pl.tile.get_block_idx())");
      ok = false;
    }
  SpmdArgs a = ok ? parse_spmd_args(call, false, cx) : SpmdArgs{};
  if (!ok || !a.ok || !declared_) {
    poison_assigned_names(skip_suite_from(pos_), cx);
    parse_suite_unlowered();
    return;
  }
  AtArgs names;
  names.name_hint = a.name_hint;
  OutlinedScope o = outline_scope(outlined_name(names, ir::FunctionKind::InCore, cx),
                                  ir::FunctionKind::InCore, span, cx, &index, true);
  check_declared_waiter(*o.fn);
  emit_spmd_submit(out, o, a, nullptr, span, cx);
}

void Parser::parse_spmd_with(ir::Block& out, const SynExpr& call, const Token* as_name,
                             const SourceSpan& span, LowerCtx& cx) {
  if (as_name && cluster_depth_ > 0) {
    error(as_name->span,
          "'with pl.spmd(...) as tid:' cannot be nested inside pl.cluster(): the cluster is dispatched as "
          "one group task, so the block launch has no task id of its own");
    return skip_scope_body(as_name, cx);
  }
  SpmdArgs a = parse_spmd_args(call, as_name != nullptr, cx);
  if (!a.ok || !declared_) return skip_scope_body(as_name, cx);
  size_t end = skip_suite_from(pos_);
  if (size_t header = at_carrier_header(end)) return parse_spmd_carrier(out, a, as_name, header, span, cx);
  bool reads_index = false;
  int dispatches = 0;
  for (size_t i = pos_; i < end; ++i) {
    if (!is_name_call(tokens_, i)) continue;
    const std::string& name = tokens_[i].text;
    if (name == "get_block_idx") reads_index = true;
    bool via_self = i >= 2 && after_dot(tokens_, i) && tokens_[i - 2].text == "self";
    if (via_self || (!after_dot(tokens_, i) && (find_function(cx, name) || inline_sigs_.count(name))))
      ++dispatches;
  }
  if (!reads_index && dispatches == 0) {
    error(span,
          "'with pl.spmd(...)' body neither reads the per-block index via pl.tile.get_block_idx() nor "
          "dispatches a kernel call, so every block would run identical work; read the index, call a "
          "kernel that reads it, or use 'for i in pl.spmd(n):'");
    return skip_scope_body(as_name, cx);
  }
  if (!reads_index && dispatches > 1) {
    error(span, "'with pl.spmd(...)' dispatch body launches " + std::to_string(dispatches) +
                    " kernels; only one kernel dispatch per SPMD scope is supported: use one pl.spmd scope "
                    "per kernel, or read pl.tile.get_block_idx() so the whole body becomes one kernel");
    return skip_scope_body(as_name, cx);
  }
  if (!reads_index) {
    if (!lower_spmd_dispatch(out, a, as_name, span, cx)) poison_assigned_names(pos_, cx);
    return;
  }
  AtArgs names;
  names.name_hint = a.name_hint;
  OutlinedScope o = outline_scope(outlined_name(names, ir::FunctionKind::InCore, cx),
                                  ir::FunctionKind::InCore, span, cx, nullptr, true);
  check_declared_waiter(*o.fn);
  emit_spmd_submit(out, o, a, as_name, span, cx);
}

// When the suite at the cursor (ending at `end`) is one `with pl.at(...)` statement, the token index of
// its `with`; else 0.
size_t Parser::at_carrier_header(size_t end) {
  size_t w = pos_ + 2;
  if (w >= end || tokens_[pos_].kind != TokenKind::Newline || tokens_[pos_ + 1].kind != TokenKind::Indent ||
      !(tokens_[w].kind == TokenKind::Name && tokens_[w].text == "with"))
    return 0;
  size_t saved = pos_;
  bool carrier = false;
  speculate([&] {
    pos_ = w + 1;
    SynExprP item = parse_expr();
    if (item->kind != SynKind::Call || canonical(*item->items[0]).value_or("") != "pl.at") return;
    if (accept_op(",")) return;
    if (at_keyword("as")) {
      advance();
      expect_name("");
    }
    if (!accept_op(":")) return;
    size_t inner_end = skip_suite_from(pos_);
    carrier = inner_end + 1 == end && tokens_[inner_end].kind == TokenKind::Dedent;
  });
  pos_ = saved;
  return carrier ? w : 0;
}

// `with pl.spmd(N): with pl.at(level=pl.Level.CORE_GROUP, ...) [as tid]:` the pl.at scope is the kernel
// (PyPTO's printer writes Spmd(InCore(...)) this way); its name_hint names it and its deps= and `as`
// join the launch's.
void Parser::parse_spmd_carrier(ir::Block& out, SpmdArgs& a, const Token* as_name, size_t header,
                                const SourceSpan& span, LowerCtx& cx) {
  pos_ = header + 1;
  SynExprP item = parse_expr();
  const Token* at_as = nullptr;
  if (at_keyword("as")) {
    advance();
    at_as = &expect_name("expected a name after 'as'");
  }
  expect_op(":", "expected ':' after 'with' header");
  AtArgs at = parse_at_args(*item);
  bool ok = at.ok;
  if (ok && at.level != "CORE_GROUP") {
    error(item->span,
          "the pl.at scope that is the whole body of a pl.spmd scope is its kernel: it takes "
          "level=pl.Level.CORE_GROUP, got pl.Level." +
              at.level);
    ok = false;
  }
  if (ok && !at.role.empty()) {
    error(item->span, "pl.at(): role= is not supported with level=pl.Level.CORE_GROUP (an InCore scope)");
    ok = false;
  }
  if (ok && as_name && at_as) {
    error(at_as->span,
          "the launch's task id is bound once: by 'with pl.spmd(...) as tid:' or by the pl.at "
          "scope inside it, not both");
    ok = false;
  }
  if (ok && a.deps && at.deps) {
    error(at.deps->span, "deps= is given on both pl.spmd(...) and the pl.at scope inside it; give it once");
    ok = false;
  }
  if (ok && at.deps) {
    a.deps = at.deps;
    a.deps_value = lower(*at.deps, cx);
    ok = a.deps_value != nullptr;
  }
  if (!ok) {
    skip_scope_body(at_as, cx);
  } else {
    OutlinedScope o = outline_scope(outlined_name(at, ir::FunctionKind::InCore, cx), ir::FunctionKind::InCore,
                                    span, cx, nullptr, true);
    check_declared_waiter(*o.fn);
    emit_spmd_submit(out, o, a, as_name ? as_name : at_as, span, cx);
  }
  if (peek().kind == TokenKind::Dedent) advance();
}

// A dispatch body runs in place; its one kernel call statement becomes the submit on N blocks.
bool Parser::lower_spmd_dispatch(ir::Block& out, const SpmdArgs& a, const Token* as_name,
                                 const SourceSpan& span, LowerCtx& cx) {
  ir::Block body = parse_suite("'with' header", cx);
  for (size_t i = 0; i < body.size(); ++i) {
    ir::Stmt& s = body[i];
    const auto* assign = s->as<ir::Assign>();
    const auto* expr = s->as<ir::ExprStmt>();
    ir::Expr value = assign ? assign->value : expr ? expr->value : nullptr;
    const auto* call = value ? value->as<ir::FuncCall>() : nullptr;
    KernelCalls one(cx.build.functions);
    if (value) one.visit_expr(value);
    if (!call || one.found.size() != 1 || one.found[0] != call) continue;
    std::vector<ir::CallArg> args{
        {"", b_->func_ref(call->callee, call->via_self, cx.build, call->span), span}};
    for (const ir::Expr& v : call->args) args.push_back(ir::CallArg{"", v, v ? v->span : span});
    args.push_back(ir::CallArg{"core_num", a.core_num_value, a.core_num->span});
    if (a.deps) args.push_back(ir::CallArg{"deps", a.deps_value, a.deps->span});
    ir::Expr submit = b_->op_call(*ir::find_op("pl.spmd_submit"), args, cx.build, call->span);
    if (!submit) return false;
    auto launch = std::make_shared<ir::Assign>();
    launch->span = s->span;
    launch->value = submit;
    // A kernel with several results (`a, b = self.k(...)`): the submit's first result is their tuple,
    // held by a name of its own and unpacked right after the launch.
    const bool several = assign && assign->targets.size() > 1;
    ir::Var results =
        several ? bind_local("_" + call->callee + "_results", call->type, s->span, cx) : nullptr;
    launch->targets.push_back(several ? results : assign ? assign->targets[0] : nullptr);
    launch->targets.push_back(
        as_name ? bind_local(as_name->text, ir::simple_type(ir::TypeKind::TaskId), as_name->span, cx)
                : nullptr);
    std::shared_ptr<ir::Assign> unpack = several ? std::make_shared<ir::Assign>(*assign) : nullptr;
    s = launch;  // `assign` and `call` point into the statement this replaces: not read below
    if (unpack) {
      unpack->value = b_->var_ref(results, unpack->span);
      body.insert(body.begin() + static_cast<std::ptrdiff_t>(i) + 1, unpack);
    }
    out.insert(out.end(), body.begin(), body.end());
    return true;
  }
  KernelCalls all(cx.build.functions);
  all.visit_block(body);
  error(all.found.empty() ? span : all.found[0]->span,
        "the kernel call of a 'with pl.spmd(...)' dispatch body must be a statement of its own "
        "('out = self.kernel(...)' or 'self.kernel(...)') directly in the body; this form is not supported "
        "yet");
  return false;
}

void Parser::emit_spmd_submit(ir::Block& out, const OutlinedScope& o, const SpmdArgs& a, const Token* as_name,
                              const SourceSpan& span, LowerCtx& cx) {
  auto fail = [&](const SourceSpan& at, const std::string& message) {
    error(at, message);
    // The names the scope would bind have no value: later uses are silent, this line is the report.
    for (const auto& [name, v] : o.results)
      (*cx.locals)[name] = Binding{Binding::Kind::Local, nullptr, nullptr};
    if (as_name) (*cx.locals)[as_name->text] = Binding{Binding::Kind::Local, nullptr, nullptr};
  };
  if (!o.results.empty()) {
    std::string names;
    for (const auto& [name, v] : o.results) names += (names.empty() ? "'" : ", '") + name + "'";
    return fail(span, "each block of a pl.spmd scope assigns " + names +
                          ", which the code after it reads: which block's value that is is not defined; "
                          "write the value into a tensor the scope's blocks store into instead");
  }
  std::vector<ir::CallArg> args{{"", b_->func_ref(o.fn->name, cx.class_style, cx.build, span), span}};
  for (const ir::Var& v : o.captured) args.push_back(ir::CallArg{"", b_->var_ref(v, span), span});
  args.push_back(ir::CallArg{"core_num", a.core_num_value, a.core_num->span});
  if (a.deps) args.push_back(ir::CallArg{"deps", a.deps_value, a.deps->span});
  ir::Expr call = b_->op_call(*ir::find_op("pl.spmd_submit"), args, cx.build, span);
  if (!call) return;
  auto s = std::make_shared<ir::Assign>();
  s->span = span;
  s->value = call;
  s->targets.push_back(nullptr);  // the kernel returns nothing: what it writes is the caller's tensors
  s->targets.push_back(
      as_name ? bind_local(as_name->text, ir::simple_type(ir::TypeKind::TaskId), as_name->span, cx)
              : nullptr);
  out.push_back(s);
}

}  // namespace ptodist::frontend
