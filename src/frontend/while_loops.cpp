// While loops, in PyPTO's two forms:
//
//   while i < n:                                   # the plain form
//       ...
//   for (x, y) in pl.while_(init_values=(a, b)):   # the loop-carried form
//       pl.cond(x < n)                             # first: the condition, read before every iteration
//       ...
//       x_out, y_out = pl.yield_(x2, y2)           # last: the next iteration's carried values
//
// Both become an ir::While. As for pl.range with init_values (loops.cpp), the carried names are mutable
// variables: assigned their init values before the loop, rebound by the loop-level pl.yield_, and the
// yield's names receive their values after the loop (equal to the init values when it runs zero times).
#include "parser_impl.h"
#include "stmt_nodes.h"

namespace ptodist::frontend {

// The runtime and PTO's scf.condition take a bool (an integer tests against zero, as in Python).
bool Parser::check_while_cond(const ir::Expr& cond, const SourceSpan& span) {
  const ir::Type& t = cond->type;
  if (t && t->kind == ir::TypeKind::Scalar && (ir::dtype_is_int(t->dtype) || t->dtype == ir::DType::BOOL))
    return true;
  error(span, "while condition must be a bool or integer scalar, got " + ir::type_str(t));
  return false;
}

void Parser::parse_while(ir::Block& out, LowerCtx& cx) {
  SourceSpan begin = advance().span;  // 'while'
  SynExprP cond = parse_expr();
  if (!accept_op(":")) fail(peek().span, "expected ':' after the 'while' condition");
  auto loop = std::make_shared<ir::While>();
  loop->span = span_to_prev(begin);
  loop->cond = lower(*cond, cx);
  bool ok = loop->cond && check_while_cond(loop->cond, cond->span);
  LoopCarry no_carry;  // a pl.yield_ here is not one of an enclosing loop
  no_carry.if_depth = if_depth_;
  LoopExits exits;
  exits.span = loop->span;
  ir::Block body;
  {
    PushScope<LoopCarry> carry_scope(carries_, &no_carry);
    PushScope<LoopExits> exits_scope(exits_, &exits);
    PushScope<WhileHead> head_scope(while_heads_, nullptr);
    body = parse_suite("'while' header", cx);
  }
  ir::Block before;
  loop->body = finish_loop_body(exits, std::move(body), before, &loop->cond);
  if (!ok) return;
  out.insert(out.end(), before.begin(), before.end());
  out.push_back(loop);
}

bool Parser::lower_while_iterable(const SynExpr& iter, LowerCtx& cx,
                                  std::optional<std::vector<ir::Expr>>& inits) {
  if (iter.kind != SynKind::Call || canonical(*iter.items[0]).value_or("") != "pl.while_") {
    error(iter.span, "a loop over a tuple of names iterates pl.while_(init_values=(...))");
    return false;
  }
  bool ok = true;
  for (size_t i = 1; i < iter.items.size(); ++i) {
    const SynExpr& a = *iter.items[i];
    if (a.keyword == "init_values") {
      ok = lower_init_values(a, cx, inits) && ok;
      continue;
    }
    error(a.span,
          "pl.while_ takes only init_values=(...); its condition is the pl.cond(...) that opens "
          "the body");
    ok = false;
  }
  if (ok && !inits) {
    error(iter.span, "pl.while_ requires init_values=(...)");
    return false;
  }
  return ok;
}

// `for (x, y) in pl.while_(init_values=(a, b)):`, at the '(' after 'for'.
void Parser::parse_while_iter(ir::Block& out, const SourceSpan& begin, LowerCtx& cx) {
  advance();  // '('
  std::vector<std::pair<std::string, SourceSpan>> carried;
  while (!at_op(")")) {
    const Token& n = expect_name("expected a name of a loop-carried value");
    carried.emplace_back(n.text, n.span);
    if (!accept_op(",")) break;
  }
  SourceSpan names_span = span_to_prev(begin);
  expect_op(")", "expected ')' after the loop-carried names");
  if (!at_keyword("in")) fail(peek().span, "expected 'in' after the loop-carried names of 'for'");
  advance();
  SynExprP iter = parse_expr();
  if (!accept_op(":")) fail(peek().span, "expected ':' after 'for' header");
  auto loop = std::make_shared<ir::While>();
  loop->span = span_to_prev(begin);
  std::optional<std::vector<ir::Expr>> inits;
  bool ok = lower_while_iterable(*iter, cx, inits);
  ok = ok && check_carried(*iter, carried, inits, names_span);
  LoopCarry carry;
  carry.if_depth = if_depth_;
  carry.failed = !ok;
  if (ok) {
    for (size_t i = 0; i < carried.size(); ++i)
      carry.vars.push_back(bind_local(carried[i].first, (*inits)[i]->type, carried[i].second, cx));
    ir::Expr init = inits->size() == 1 ? (*inits)[0] : b_->tuple(*inits, iter->span);
    out.push_back(make_assign(carry.vars, init, loop->span));
  } else {
    for (const auto& [name, span] : carried) bind_local(name, nullptr, span, cx);  // silent in the body
  }
  LoopExits exits;
  exits.span = loop->span;
  WhileHead head;
  head.body_block = blocks_ + 1;  // the block parse_suite opens next
  ir::Block body;
  {
    PushScope<LoopCarry> carry_scope(carries_, &carry);
    PushScope<LoopExits> exits_scope(exits_, &exits);
    PushScope<WhileHead> head_scope(while_heads_, &head);
    body = parse_suite("'for' header", cx);
  }
  if (!ok) return;
  if (!head.seen) {
    error(loop->span, "the body of a pl.while_ loop starts with pl.cond(condition)");
    return;
  }
  if (!carry.yielded) {
    error(loop->span, "the body of a pl.while_ loop ends with pl.yield_(...) of its " +
                          std::to_string(carry.vars.size()) + " carried value(s)");
    return;
  }
  if (!head.cond) return;  // the pl.cond reported why
  loop->cond = head.cond;
  ir::Block before;
  loop->body = finish_loop_body(exits, std::move(body), before, &loop->cond);
  out.insert(out.end(), before.begin(), before.end());
  out.push_back(loop);
  bind_loop_results(out, carry, carried, loop->span, cx);
}

bool Parser::is_cond_call(const SynExpr& e) const {
  return e.kind == SynKind::Call && canonical(*e.items[0]).value_or("") == "pl.cond";
}

// `pl.cond(expr)`: only as the first statement of a pl.while_ body, where it sets the loop's condition.
void Parser::parse_while_cond(const ir::Block& out, const SynExpr& call, LowerCtx& cx) {
  WhileHead* head = while_heads_.empty() ? nullptr : while_heads_.back();
  if (!head || head->body_block != block_ || !out.empty() || head->seen) {
    error(call.span,
          "pl.cond(...) must be the first statement of a 'for (...) in pl.while_(init_values=(...)):' body");
    return;
  }
  head->seen = true;
  if (call.items.size() != 2 || !call.items[1]->keyword.empty() || call.items[1]->kind == SynKind::Star) {
    error(call.span, "pl.cond takes one positional condition: pl.cond(x < n)");
    return;
  }
  ir::Expr cond = lower(*call.items[1], cx);
  if (cond && check_while_cond(cond, call.items[1]->span)) head->cond = cond;
}

}  // namespace ptodist::frontend
