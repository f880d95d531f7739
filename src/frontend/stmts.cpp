// Statements of a function body: assignments (plain, unpacking, annotated, augmented), loops, if/elif/else,
// `with pl.manual_scope():`, return, expression statements and pass, with per-statement error recovery.
#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

template <typename T>
std::shared_ptr<T> make_stmt(const SourceSpan& span) {
  auto s = std::make_shared<T>();
  s->span = span;
  return s;
}

// A rebinding must keep the variable's type; Python integers are untyped, so integer scalars of any
// width may rebind each other (the builder already gives `n + 1` the dtype of n).
bool rebind_compatible(const ir::Type& old_type, const ir::Type& new_type) {
  if (ir::type_equal(old_type, new_type)) return true;
  return old_type->kind == ir::TypeKind::Scalar && new_type->kind == ir::TypeKind::Scalar &&
         ir::dtype_is_int(old_type->dtype) && ir::dtype_is_int(new_type->dtype);
}

const char* const kUnsupportedKeywords[] = {
    "while", "break", "continue", "raise",   "assert", "del",   "global", "nonlocal", "import", "from",
    "yield", "try",   "except",   "finally", "async",  "await", "lambda", "def",      "class"};

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
    try {
      parse_statement(out, cx, docstring);
    } catch (const SyntaxAbort&) {
      skip_statement();
    }
    if (pos_ == start) advance();  // never loop without progress
    docstring = nullptr;
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
  if (at_keyword("for")) {
    s = parse_for(cx);
  } else if (at_keyword("if")) {
    s = parse_if(cx, "if");
  } else if (at_keyword("with")) {
    s = parse_with(cx);
  } else if (at_keyword("elif") || at_keyword("else")) {
    fail(t.span, "'" + t.text + "' without a matching 'if'");
  } else if (at_op("@")) {
    fail(t.span, "decorators and nested functions are not supported inside a kernel function");
  } else {
    parse_simple_statement(out, cx, docstring);
    return;
  }
  if (s) out.push_back(s);
}

void Parser::parse_simple_statement(ir::Block& out, LowerCtx& cx, std::string* docstring) {
  for (;;) {
    const Token& t = peek();
    SourceSpan begin = t.span;
    if (t.kind == TokenKind::Name) {
      for (const char* kw : kUnsupportedKeywords)
        if (t.text == kw) fail(t.span, "'" + t.text + "' statements are not supported in kernel functions");
    }
    if (at_keyword("pass")) {
      advance();
      out.push_back(make_stmt<ir::Pass>(begin));
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
      } else if (ir::Expr v = lower(*first, cx)) {
        auto s = make_stmt<ir::ExprStmt>(first->span);
        s->value = v;
        out.push_back(s);
      }
    }
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
    if (type && v->type && !rebind_compatible(v->type, type))
      error(span, "cannot rebind '" + name + "' (" + ir::type_str(v->type) + ") to a value of type " +
                      ir::type_str(type) + "; use a new name");
    return v;
  }
  // A name seen only through failed definitions stays poisoned (null) so its uses stay silent.
  ir::Var v = type ? b_->make_var(name, type, span) : nullptr;
  (*cx.locals)[name] = Binding{Binding::Kind::Local, v, nullptr};
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

void Parser::parse_assignment(ir::Block& out, const SynExprP& target, LowerCtx& cx) {
  advance();  // '='
  SynExprP value = parse_testlist();
  if (at_op("=")) fail(peek().span, "chained assignment 'a = b = value' is not supported");
  std::vector<const SynExpr*> names;
  bool unpack = target->kind == SynKind::Tuple || target->kind == SynKind::List;
  if (unpack)
    for (const SynExprP& it : target->items) names.push_back(it.get());
  else
    names.push_back(target.get());
  bool ok = true;
  for (const SynExpr* n : names) ok = check_target(*n, *diags_) && ok;
  if (!ok) return;
  ir::Expr v = lower(*value, cx);
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

void Parser::parse_annotated_assignment(ir::Block& out, const SynExprP& target, LowerCtx& cx) {
  advance();  // ':'
  SynExprP annotation = parse_expr();
  if (!accept_op("="))
    fail(peek().span, "expected '=' and a value after the annotation of '" + target->text + "'");
  SynExprP value = parse_testlist();
  if (!check_target(*target, *diags_)) return;
  ir::Type declared = lower_type(*annotation, cx);
  ir::Expr v = lower(*value, cx);
  if (v && declared && v->type && !rebind_compatible(declared, v->type)) {
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

ir::Stmt Parser::parse_for(LowerCtx& cx) {
  SourceSpan begin = advance().span;  // 'for'
  const Token& var = expect_name("expected a loop variable name after 'for'");
  std::string iv_name = var.text;
  SourceSpan iv_span = var.span;
  if (at_op(",")) fail(peek().span, "loops over several variables are not supported");
  if (!at_keyword("in")) fail(peek().span, "expected 'in' after the loop variable of 'for'");
  advance();
  SynExprP iter = parse_expr();
  if (!accept_op(":")) fail(peek().span, "expected ':' after 'for' header");
  auto loop = make_stmt<ir::For>(span_to_prev(begin));
  bool ok = lower_loop_iterable(*iter, *loop, cx);
  loop->iv = bind_local(iv_name, ir::scalar_type(ir::DType::INT64), iv_span, cx);
  loop->body = parse_suite("'for' header", cx);  // parsed even after an error, to report what is inside
  if (!ok || !loop->iv) return nullptr;
  return loop;
}

// `pl.range(stop)`, `pl.range(start, stop[, step])` and the parallel/unroll/pipeline forms (plain
// `range` reads as pl.range); fills the loop's kind and bounds.
bool Parser::lower_loop_iterable(const SynExpr& iter, ir::For& loop, LowerCtx& cx) {
  static const std::map<std::string, ir::LoopKind> kinds = {{"pl.range", ir::LoopKind::Range},
                                                            {"pl.parallel", ir::LoopKind::Parallel},
                                                            {"pl.unroll", ir::LoopKind::Unroll},
                                                            {"pl.pipeline", ir::LoopKind::Pipeline}};
  std::string path;
  if (iter.kind == SynKind::Call) {
    const SynExpr& callee = *iter.items[0];
    bool builtin = callee.kind == SynKind::Name && callee.text == "range" && !lookup(cx, "range");
    path = builtin ? "pl.range" : canonical(callee).value_or("");
  }
  auto it = kinds.find(path);
  if (it == kinds.end()) {
    error(
        iter.span,
        "expected pl.range(...), pl.parallel(...), pl.unroll(...) or pl.pipeline(...) as the loop iterable");
    return false;
  }
  loop.loop_kind = it->second;
  bool pipeline = loop.loop_kind == ir::LoopKind::Pipeline;
  std::vector<ir::Expr> bounds;
  bool ok = true;
  for (size_t i = 1; i < iter.items.size(); ++i) {
    const SynExpr& a = *iter.items[i];
    ir::Expr v = lower(a, cx);
    ok = ok && v;
    if (a.keyword == "stage" && pipeline) {
      loop.stage = v;
    } else if (!a.keyword.empty() || a.kind == SynKind::Star) {
      error(a.span, "unexpected argument" + (a.keyword.empty() ? "" : " '" + a.keyword + "'") + " of " +
                        path + "; expected " + path + "(stop), " + path + "(start, stop) or " + path +
                        "(start, stop, step)" + (pipeline ? " with stage=" : ""));
      ok = false;
    } else {
      bounds.push_back(v);
    }
  }
  if (bounds.empty() || bounds.size() > 3) {
    error(iter.span, path + " expects 1 to 3 positional arguments (start, stop, step)");
    return false;
  }
  if (!ok) return false;
  loop.start = bounds.size() >= 2 ? bounds[0] : b_->int_imm(0);
  loop.stop = bounds.size() >= 2 ? bounds[1] : bounds[0];
  loop.step = bounds.size() == 3 ? bounds[2] : b_->int_imm(1);
  return true;
}

ir::Stmt Parser::parse_if(LowerCtx& cx, const std::string& keyword) {
  SourceSpan begin = advance().span;  // 'if' / 'elif'
  SynExprP cond = parse_expr();
  if (!accept_op(":")) fail(peek().span, "expected ':' after '" + keyword + "' condition");
  auto s = make_stmt<ir::If>(span_to_prev(begin));
  s->cond = lower(*cond, cx);
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

ir::Stmt Parser::parse_with(LowerCtx& cx) {
  SourceSpan begin = advance().span;  // 'with'
  SynExprP item = parse_expr();
  if (at_keyword("as"))
    fail(peek().span, "'with ... as' is not supported; only 'with pl.manual_scope():' is");
  if (!accept_op(":")) fail(peek().span, "expected ':' after 'with' header");
  auto s = make_stmt<ir::ManualScope>(span_to_prev(begin));
  bool ok = item->kind == SynKind::Call && item->items.size() == 1 &&
            canonical(*item->items[0]).value_or("") == "pl.manual_scope";
  if (!ok) error(item->span, "unsupported 'with' statement; only 'with pl.manual_scope():' is supported");
  s->body = parse_suite("'with' header", cx);
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
