// Statements of a function body: assignments (plain, unpacking, annotated, augmented), if/elif/else,
// return, expression statements, pass, continue and break, with per-statement error recovery and the guard
// that no statement is dropped. Loops are in loops.cpp and while_loops.cpp, `with` in scopes.cpp, slices in
// subscripts.cpp.
#include "parser_impl.h"
#include "ptodist/ir/scalar_eval.h"
#include "stmt_nodes.h"

namespace ptodist::frontend {

namespace {

// A rebinding must keep the variable's type; Python integers are untyped, so integer scalars of any
// width may rebind each other (the builder already gives `n + 1` the dtype of n).
bool rebind_compatible(const ir::Type& old_type, const ir::Type& new_type) {
  if (ir::type_equal(old_type, new_type)) return true;
  return old_type->kind == ir::TypeKind::Scalar && new_type->kind == ir::TypeKind::Scalar &&
         ir::dtype_is_int(old_type->dtype) && ir::dtype_is_int(new_type->dtype);
}

// A tile type whose valid region differs from the old one's (type_equal ignores it).
bool new_valid_region(const ir::Type& old_type, const ir::Type& new_type) {
  return old_type->kind == ir::TypeKind::Tile && ir::type_str(old_type) != ir::type_str(new_type);
}

const char* const kUnsupportedKeywords[] = {"raise", "assert", "del", "global", "nonlocal", "import",
                                            "from",  "yield",  "try", "except", "finally",  "async",
                                            "await", "lambda", "def", "class"};

// Collects the statements inline calls splice while one statement is parsed, and puts them before
// it; the enclosing statement's own prelude is set aside meanwhile (an `if` header's, while its branches
// are parsed).
struct PreludeScope {
  std::vector<ir::Stmt>& prelude;
  ir::Block& out;
  std::vector<ir::Stmt> saved;
  PreludeScope(std::vector<ir::Stmt>& p, ir::Block& o) : prelude(p), out(o), saved(std::move(p)) {
    p.clear();
  }
  void flush(size_t at) {
    out.insert(out.begin() + static_cast<long>(at), prelude.begin(), prelude.end());
    prelude.clear();
  }
  ~PreludeScope() { prelude = std::move(saved); }
};

bool is_aug_op(const Token& t) {
  static const char* const ops[] = {
      "+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="};
  if (t.kind != TokenKind::Op) return false;
  for (const char* op : ops)
    if (t.text == op) return true;
  return false;
}

}  // namespace

ir::Block Parser::parse_suite(const std::string& header, LowerCtx& cx, std::string* docstring) {
  struct BlockScope {
    int& current;
    int outer;
    ~BlockScope() { current = outer; }
  } scope{block_, block_};
  block_ = ++blocks_;
  if (peek().kind != TokenKind::Newline) {
    ir::Block out;
    parse_simple_statement(out, cx, docstring);
    return out;
  }
  advance();
  if (peek().kind != TokenKind::Indent) {
    error(peek().span, "expected an indented block after " + header);
    return {};
  }
  advance();
  return parse_block_body(cx, docstring);
}

ir::Block Parser::parse_block_body(LowerCtx& cx, std::string* docstring) {
  ir::Block out;
  while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
    size_t start = pos_;
    int exits_before = exits_.empty() ? 0 : exits_.back()->written;
    try {
      parse_statement(out, cx, docstring);
    } catch (const SyntaxAbort&) {
      skip_statement();
    }
    if (pos_ == start) advance();  // never loop without progress
    docstring = nullptr;
    // What follows a continue/break runs only when it was not taken (loop_exits.cpp).
    if (!exits_.empty() && exits_.back()->written > exits_before && peek().kind != TokenKind::Dedent &&
        peek().kind != TokenKind::End) {
      guard_after_exit(out, cx);
      return out;
    }
  }
  if (peek().kind == TokenKind::Dedent) advance();
  return out;
}

void Parser::parse_statement(ir::Block& out, LowerCtx& cx, std::string* docstring) {
  const Token& t = peek();
  if (t.kind == TokenKind::Indent) {
    error(t.span, "unexpected indent");
    skip_block();
    return;
  }
  ir::Stmt s;
  size_t size_before = out.size();
  int problems_before = problems_reported();
  // The bodies of inline calls in this statement's header go before it.
  PreludeScope prelude(prelude_, out);
  if (at_keyword("for")) {
    parse_for(out, cx);
  } else if (at_keyword("while")) {
    parse_while(out, cx);
  } else if (at_keyword("if")) {
    s = parse_if(cx, "if");
  } else if (at_keyword("with")) {
    parse_with(out, cx);
  } else if (at_keyword("elif") || at_keyword("else")) {
    fail(t.span, "'" + t.text + "' without a matching 'if'");
  } else if (at_op("@")) {
    fail(t.span, "decorators and nested functions are not supported inside a kernel function");
  } else {
    parse_simple_statement(out, cx, docstring);
    return;
  }
  if (s) out.push_back(s);
  prelude.flush(size_before);
  require_lowered(t.span, out, size_before, problems_before);
}

// The guard that makes a dropped statement impossible: every statement either adds IR or has reported
// why it could not (a statement parser that returns nothing without an error is a bug in ptodist, and
// the user learns which line it hit instead of running a program with the statement missing).
void Parser::require_lowered(const SourceSpan& span, const ir::Block& out, size_t size_before,
                             int problems_before) {
  if (out.size() > size_before || problems_reported() > problems_before) return;
  error(span,
        "internal error: this statement was not lowered to IR and no reason was reported; "
        "please report it");
}

void Parser::parse_simple_statement(ir::Block& out, LowerCtx& cx, std::string* docstring) {
  for (;;) {
    const Token& t = peek();
    SourceSpan begin = t.span;
    size_t size_before = out.size();
    int problems_before = problems_reported();
    PreludeScope prelude(prelude_, out);
    bool comment = false;  // a bare string: a docstring or a comment, nothing to lower
    if (t.kind == TokenKind::Name) {
      for (const char* kw : kUnsupportedKeywords)
        if (t.text == kw) fail(t.span, "'" + t.text + "' statements are not supported in kernel functions");
    }
    if (at_keyword("pass")) {
      advance();
      out.push_back(make_stmt<ir::Pass>(begin));
    } else if (at_keyword("continue") || at_keyword("break")) {
      parse_loop_exit(out);
    } else if (at_keyword("return")) {
      if (ir::Stmt r = parse_return(cx)) out.push_back(r);
    } else {
      SynExprP first = parse_testlist();
      if (at_op(":")) {
        parse_annotated_assignment(out, first, cx);
      } else if (at_op("=")) {
        parse_assignment(out, first, cx);
      } else if (is_aug_op(peek())) {
        Token op = advance();
        parse_aug_assignment(out, first, op, cx);
      } else if (first->kind == SynKind::String) {
        if (docstring) *docstring = first->text;  // other bare strings are comments
        comment = true;
      } else if (is_yield_call(*first)) {
        parse_yield(out, {}, *first, cx);
      } else if (is_cond_call(*first)) {
        parse_while_cond(out, *first, cx);
        comment = true;  // sets the loop's condition; nothing in the body
      } else if (is_bind_dynamic(*first)) {
        lower_bind_dynamic(out, *first, cx);
      } else if (ir::Expr v = lower(*first, cx)) {
        auto s = make_stmt<ir::ExprStmt>(first->span);
        s->value = v;
        out.push_back(s);
      }
    }
    prelude.flush(size_before);
    if (!comment) require_lowered(begin, out, size_before, problems_before);
    docstring = nullptr;
    if (!accept_op(";") || at_line_end()) break;
  }
  expect_line_end("statement");
}

ir::Var Parser::bind_local(const std::string& name, const ir::Type& type, const SourceSpan& span,
                           LowerCtx& cx) {
  if (name == "_") return nullptr;
  auto it = cx.locals->find(name);
  if (it != cx.locals->end() && it->second.var) {
    const ir::Var& v = it->second.var;
    bool same_block = it->second.kind == Binding::Kind::Local && it->second.block == block_;
    // A slice `a[0:M, ...]` is typed [(M - 0), ...]: dims that fold alike through the constants agree.
    if (!type || !v->type) return v;
    bool compatible = rebind_compatible(v->type, type) || same_after_folding(v->type, type, cx);
    if (compatible && !(same_block && new_valid_region(v->type, type))) return v;
    // Python rebinds a name to any value, and PyPTO's SSA makes it a new variable. Here one variable
    // holds a name wherever its value may flow around a loop or out of a branch, so only a name bound
    // in this same block (straight-line code after it reads the new variable) takes a new type, or a
    // tile's new valid region (`t = pl.set_validshape(t, 1, 1)`).
    if (!same_block) {
      error(span, "cannot rebind '" + name + "' (" + ir::type_str(v->type) + ") to a value of type " +
                      ir::type_str(type) +
                      " outside the block that bound it (its value may flow around a loop or out of a "
                      "branch); use a new name");
      return v;
    }
  }
  // A name seen only through failed definitions stays poisoned (null) so its uses stay silent.
  ir::Var v = type ? b_->make_var(name + inline_var_suffix_, type, span) : nullptr;
  (*cx.locals)[name] = Binding{Binding::Kind::Local, v, nullptr, block_};
  return v;
}

namespace {

// Reports why `e` cannot be assigned to; returns false then.
bool check_target(const SynExpr& e, DiagnosticEngine& diags) {
  if (e.kind == SynKind::Name) return true;
  if (e.kind == SynKind::Subscript)
    diags.error(e.span, "assignment to a subscript is not supported; use pl.store(...) or pl.write(...)");
  else if (e.kind == SynKind::Attr)
    diags.error(e.span, "assignment to an attribute is not supported");
  else
    diags.error(e.span, "cannot assign to this expression; expected a name or names separated by commas");
  return false;
}

}  // namespace

bool Parser::is_yield_call(const SynExpr& e) const {
  return e.kind == SynKind::Call && canonical(*e.items[0]).value_or("") == "pl.yield_";
}

void Parser::parse_assignment(ir::Block& out, const SynExprP& target, LowerCtx& cx) {
  advance();  // '='
  SynExprP value = parse_testlist();
  if (at_op("=")) fail(peek().span, "chained assignment 'a = b = value' is not supported");
  if (is_slice_subscript(*target)) return parse_slice_assignment(out, *target, *value, cx);
  if (lower_array_store(out, *target, *value, cx)) return;  // `a[i] = v` of a pl.array
  std::vector<const SynExpr*> names;
  bool unpack = target->kind == SynKind::Tuple || target->kind == SynKind::List;
  if (unpack)
    for (const SynExprP& it : target->items) names.push_back(it.get());
  else
    names.push_back(target.get());
  bool ok = true;
  for (const SynExpr* n : names) ok = check_target(*n, *diags_) && ok;
  if (!ok) return;
  if (is_yield_call(*value)) return parse_yield(out, names, *value, cx);
  ir::Expr v = lower(*value, cx);
  // In orchestration code PyPTO's parser reads a bare None as the invalid task id, the seed of a task-id
  // carry (`prev_tid = None`, later rebound by `... as prev_tid`).
  if (v && v->isa<ir::NoneImm>() && cx.build.function_kind == ir::FunctionKind::Orchestration)
    v = b_->op_call(*ir::find_op("pl.system.task_invalid"), {}, cx.build, value->span);
  std::vector<ir::Type> types(names.size());
  if (v && unpack) {
    if (!v->type || v->type->kind != ir::TypeKind::Tuple || v->type->elements.size() != names.size()) {
      error(value->span, "cannot unpack a value of type " + ir::type_str(v->type) + " into " +
                             std::to_string(names.size()) + " names");
      v = nullptr;
    } else {
      types = v->type->elements;
    }
  } else if (v) {
    types[0] = v->type;
  }
  auto s = make_stmt<ir::Assign>(target->span);
  for (size_t i = 0; i < names.size(); ++i)
    s->targets.push_back(bind_local(names[i]->text, types[i], names[i]->span, cx));
  if (!v) return;
  s->value = v;
  out.push_back(s);
}

// The integer a dim folds to through literals and module constants (not factory parameters, which are
// bound only at specialize), or nullopt.
std::optional<long long> Parser::fold_dim(const ir::Expr& e, const LowerCtx& cx, int depth) const {
  if (!e || depth > kMaxNesting) return std::nullopt;
  if (auto v = ir::literal_value(e); v && v->kind == ir::ScalarValue::Kind::Int) return v->i;
  if (const auto* r = e->as<ir::VarRef>()) {
    const Binding* b = r->var ? lookup(cx, r->var->name) : nullptr;
    if (!b || b->var != r->var || b->kind != Binding::Kind::Constant) return std::nullopt;
    return fold_dim(b->const_value, cx, depth + 1);
  }
  const auto* bin = e->as<ir::Binary>();
  if (!bin) return std::nullopt;
  auto a = fold_dim(bin->lhs, cx, depth + 1), b = fold_dim(bin->rhs, cx, depth + 1);
  if (!a || !b) return std::nullopt;
  ir::ScalarResult res = ir::eval_binary(bin->op, ir::ScalarValue::of_int(*a), ir::ScalarValue::of_int(*b));
  if (!res.ok() || res.value.kind != ir::ScalarValue::Kind::Int) return std::nullopt;
  return res.value.i;
}

// Whether `got` equals `declared` once every dim that folds is replaced by its integer: PyPTO's Python
// evaluates `[M, ((N + 7) // 8 + 31) // 32 * 32]` to `[16, 32]` before any comparison. A dim that does
// not fold (a factory parameter, a run-time value) is compared as written.
bool Parser::same_after_folding(const ir::Type& declared, const ir::Type& got, const LowerCtx& cx) const {
  if (declared->kind != ir::TypeKind::Tile && !declared->is_tensor_like()) return false;
  auto folded = [&](const ir::Type& t) {
    auto f = std::make_shared<ir::TypeNode>(*t);
    for (ir::Expr& d : f->shape)
      if (auto v = fold_dim(d, cx, 0)) d = ir::literal_expr(ir::ScalarValue::of_int(*v), d->span);
    return ir::Type(f);
  };
  return ir::type_equal(folded(declared), folded(got));
}

void Parser::parse_annotated_assignment(ir::Block& out, const SynExprP& target, LowerCtx& cx) {
  advance();  // ':'
  SynExprP annotation = parse_expr();
  if (!accept_op("="))
    fail(peek().span, "expected '=' and a value after the annotation of '" + target->text + "'");
  SynExprP value = parse_testlist();
  if (!check_target(*target, *diags_)) return;
  ir::Type declared = lower_type(*annotation, cx);
  if (is_yield_call(*value)) return parse_annotated_yield(out, *target, declared, *value, cx);
  value = tpop_typed_by(value, *annotation);
  ir::Expr v = lower(*value, cx);
  // A pl.Tile annotation without a memory leaves it to the value, as in PyPTO (`acc: pl.Tile[[M, N],
  // pl.FP32] = pl.matmul(a, b)` is an Acc tile).
  if (v && declared && v->type && declared->kind == ir::TypeKind::Tile &&
      v->type->kind == ir::TypeKind::Tile && !tile_annotation_has_memory(*annotation)) {
    auto t = std::make_shared<ir::TypeNode>(*declared);
    t->memory = v->type->memory;
    declared = t;
  }
  if (v && declared && v->type && !rebind_compatible(declared, v->type) &&
      !same_after_folding(declared, v->type, cx)) {
    error(value->span, "value of type " + ir::type_str(v->type) + " does not match the annotation " +
                           ir::type_str(declared) + " of '" + target->text + "'");
    v = nullptr;
  }
  ir::Var var = bind_local(target->text, v ? declared : nullptr, target->span, cx);
  if (!v || !declared) return;
  auto s = make_stmt<ir::Assign>(target->span);
  s->targets.push_back(var);
  s->value = v;
  s->annotation = declared;
  out.push_back(s);
}

// Whether a pl.Tile[...] annotation names a memory (its third item, a pl.TileView aside).
bool Parser::tile_annotation_has_memory(const SynExpr& annotation) const {
  if (annotation.kind != SynKind::Subscript || annotation.items.size() != 2) return true;
  const SynExpr& index = *annotation.items[1];
  if (index.kind != SynKind::Tuple) return true;
  size_t n = index.items.size();
  if (n && is_tile_view(*index.items.back())) --n;
  return n >= 3;
}

bool Parser::is_tile_view(const SynExpr& e) const {
  return e.kind == SynKind::Call && !e.items.empty() && canonical(*e.items[0]).value_or("") == "pl.TileView";
}

// PyPTO's `x: pl.Tile[[R, C], dtype, mem, pl.TileView(valid_shape=[..])] = pl.tpop_from_aic(...)`: the
// pop's type is the annotation's, as PyPTO's parser takes it. The call gets the annotation's shape,
// dtype and valid_shape as arguments, so its contract (re-run by the verifier) sees them.
SynExprP Parser::tpop_typed_by(const SynExprP& value, const SynExpr& annotation) const {
  if (value->kind != SynKind::Call || value->items.empty()) return value;
  const ir::OpInfo* op = ir::find_op(canonical(*value->items[0]).value_or(""));
  if (!op || (op->id != ir::OpId::TpopFromAic && op->id != ir::OpId::TpopFromAiv)) return value;
  for (size_t i = 1; i < value->items.size(); ++i)
    if (value->items[i]->keyword == "shape" || value->items[i]->keyword == "dtype") return value;
  if (annotation.kind != SynKind::Subscript || annotation.items.size() != 2 ||
      canonical(*annotation.items[0]).value_or("") != "pl.Tile")
    return value;
  const SynExpr& index = *annotation.items[1];
  if (index.kind != SynKind::Tuple || index.items.size() < 2) return value;
  auto call = std::make_shared<SynExpr>(*value);
  auto keyword = [&](const SynExprP& v, const char* name) {
    auto k = std::make_shared<SynExpr>(*v);
    k->keyword = name;
    call->items.push_back(k);
  };
  keyword(index.items[0], "shape");
  keyword(index.items[1], "dtype");
  for (size_t i = 2; i < index.items.size(); ++i) {
    const SynExpr& view = *index.items[i];
    if (!is_tile_view(view)) continue;
    for (size_t j = 1; j < view.items.size(); ++j)
      if (view.items[j]->keyword == "valid_shape") keyword(view.items[j], "valid_shape");
  }
  return call;
}

// PyPTO's `x: T = pl.yield_(v)` (an if-branch yield written with its type): the yield as without the
// annotation, which must match the yielded value as for `x: T = v`.
void Parser::parse_annotated_yield(ir::Block& out, const SynExpr& target, const ir::Type& declared,
                                   const SynExpr& value, LowerCtx& cx) {
  size_t before = out.size();
  parse_yield(out, {&target}, value, cx);
  const auto* assign = out.size() > before ? out.back()->as<ir::Assign>() : nullptr;
  const ir::Type got = assign && assign->value ? assign->value->type : nullptr;
  if (!declared || !got || rebind_compatible(declared, got) || same_after_folding(declared, got, cx)) return;
  error(value.span, "value of type " + ir::type_str(got) + " does not match the annotation " +
                        ir::type_str(declared) + " of '" + target.text + "'");
}

void Parser::parse_aug_assignment(ir::Block& out, const SynExprP& target, const Token& op, LowerCtx& cx) {
  SynExprP value = parse_testlist();
  if (target->kind != SynKind::Name) {
    check_target(*target, *diags_);
    return;
  }
  std::string bin = op.text.substr(0, op.text.size() - 1);
  SynExpr expr;
  expr.kind = SynKind::Binary;
  expr.span = span_to_prev(target->span);
  expr.text = bin;
  expr.items = {target, value};
  ir::Expr v = lower_binary(expr, cx);
  ir::Var var = bind_local(target->text, v ? v->type : nullptr, target->span, cx);
  if (!v || !var) return;
  auto s = make_stmt<ir::Assign>(target->span);
  s->targets.push_back(var);
  s->value = v;
  out.push_back(s);
}

ir::Stmt Parser::parse_if(LowerCtx& cx, const std::string& keyword) {
  SourceSpan begin = advance().span;  // 'if' / 'elif'
  SynExprP cond = parse_expr();
  if (!accept_op(":")) fail(peek().span, "expected ':' after '" + keyword + "' condition");
  auto s = make_stmt<ir::If>(span_to_prev(begin));
  s->cond = lower(*cond, cx);
  IfDepth depth(if_depth_);  // a pl.yield_ in a branch is an if-yield (loops.cpp)
  s->then_body = parse_suite("'" + keyword + "' header", cx);
  bool ok = s->cond != nullptr;
  if (at_keyword("elif")) {
    ir::Stmt nested = parse_if(cx, "elif");
    if (nested) s->else_body.push_back(nested);
    ok = ok && nested;
  } else if (at_keyword("else")) {
    advance();
    if (!accept_op(":")) fail(peek().span, "expected ':' after 'else'");
    s->else_body = parse_suite("'else'", cx);
  }
  return ok ? s : nullptr;
}

ir::Stmt Parser::parse_return(LowerCtx& cx) {
  SourceSpan begin = advance().span;  // 'return'
  auto s = make_stmt<ir::Return>(begin);
  if (at_line_end() || at_op(";")) return s;
  SynExprP value = parse_testlist();
  s->span = span_to_prev(begin);
  std::vector<const SynExpr*> parts;
  if (value->kind == SynKind::Tuple)
    for (const SynExprP& it : value->items) parts.push_back(it.get());
  else
    parts.push_back(value.get());
  bool ok = true;
  for (const SynExpr* p : parts) {
    ir::Expr v = lower(*p, cx);
    ok = ok && v;
    s->values.push_back(v);
  }
  return ok ? s : nullptr;
}

}  // namespace ptodist::frontend
