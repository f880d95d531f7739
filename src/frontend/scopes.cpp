// `with` statements, as PyPTO's parser reads them: `with pl.manual_scope():` and
// `with pl.scope(mode=pl.ScopeMode.MANUAL):` turn automatic dependency edges off for the submits
// inside; `with pl.scope():` (AUTO) only places a runtime scope, a tuning choice PyPTO documents as never
// needed for correctness, so its body runs as if it were written in place. `with ... as NAME:` binds
// NAME. `pl.at(level=...)` is outlined into a function of that level (at_scopes.cpp), `pl.spmd(N)` into
// a kernel launched on N blocks (spmd_scopes.cpp); `pl.cluster()` runs its body in place (cluster.cpp).
#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

// The `mode=` of `pl.scope(...)`: "AUTO" (the default), "MANUAL", or "" when it is something else.
std::string scope_mode(const SynExpr& call, const Parser& p) {
  std::string mode = "AUTO";
  for (size_t i = 1; i < call.items.size(); ++i) {
    const SynExpr& a = *call.items[i];
    std::string value = p.canonical(a).value_or("");
    if ((a.keyword == "mode" || (a.keyword.empty() && i == 1)) && value.rfind("pl.ScopeMode.", 0) == 0)
      mode = value.substr(std::string("pl.ScopeMode.").size());
    else
      return "";
  }
  return mode == "AUTO" || mode == "MANUAL" ? mode : "";
}

}  // namespace

void Parser::parse_with(ir::Block& out, LowerCtx& cx) {
  SourceSpan begin = advance().span;  // 'with'
  SynExprP item = parse_expr();
  if (at_op(",")) fail(peek().span, "only one context manager per 'with' statement is supported");
  const Token* as_name = nullptr;
  if (at_keyword("as")) {
    advance();
    as_name = &expect_name("expected a name after 'as'");
  }
  if (!accept_op(":")) fail(peek().span, "expected ':' after 'with' header");
  SourceSpan span = span_to_prev(begin);
  std::string path = item->kind == SynKind::Call ? canonical(*item->items[0]).value_or("") : "";
  if (path == "pl.at") return parse_at_scope(out, *item, as_name, span, cx);
  if (path == "pl.spmd") return parse_spmd_with(out, *item, as_name, span, cx);
  if (path == "pl.cluster") return parse_cluster(out, *item, as_name, span, cx);
  bool manual = path == "pl.manual_scope" && item->items.size() == 1;
  std::string mode = path == "pl.scope" ? scope_mode(*item, *this) : "";
  if (!manual && mode.empty()) {
    error(item->span,
          "unsupported 'with' statement; expected 'with pl.manual_scope():', "
          "'with pl.scope(mode=pl.ScopeMode.MANUAL|AUTO):' or 'with pl.at(level=...):'");
    parse_suite_unlowered();
    return;
  }
  if (as_name)
    error(as_name->span, "'with " + path +
                             "(...) as ...' binds nothing; the 'as' clause belongs to "
                             "'with pl.at(...) as tid:' and 'with pl.spmd(...) as tid:'");
  bool is_manual = manual || mode == "MANUAL";
  manual_depth_ += is_manual;
  ir::Block body = parse_suite("'with' header", cx);
  manual_depth_ -= is_manual;
  if (mode == "AUTO") {
    // No IR of its own: an empty AUTO scope leaves a `pass`, so the statement is still in the IR.
    if (body.empty()) {
      auto p = std::make_shared<ir::Pass>();
      p->span = span;
      body.push_back(p);
    }
    out.insert(out.end(), body.begin(), body.end());
    return;
  }
  auto s = std::make_shared<ir::ManualScope>();
  s->span = span;
  s->body = std::move(body);
  out.push_back(s);
}

// Marks the names assigned by the statements from the cursor to `end` as failed definitions.
void Parser::poison_assigned_names(size_t end, LowerCtx& cx) {
  for (size_t i = pos_; i + 1 < end; ++i) {
    TokenKind prev = i == 0 ? TokenKind::Newline : tokens_[i - 1].kind;
    bool starts = prev == TokenKind::Newline || prev == TokenKind::Indent || prev == TokenKind::Dedent;
    if (!starts || tokens_[i].kind != TokenKind::Name || is_keyword(tokens_[i].text)) continue;
    const Token& next = tokens_[i + 1];
    if (next.kind == TokenKind::Op && (next.text == "=" || next.text == ":" || next.text == ","))
      cx.locals->emplace(tokens_[i].text, Binding{Binding::Kind::Local, nullptr, nullptr});
  }
}

// Skips a suite that a located error already covers, without lowering what it holds.
void Parser::parse_suite_unlowered() {
  if (peek().kind != TokenKind::Newline) {
    skip_statement();
    return;
  }
  advance();
  if (peek().kind == TokenKind::Indent) skip_block();
}

}  // namespace ptodist::frontend
