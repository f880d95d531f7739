// Expression syntax: Python's precedence levels, parsed by recursive descent into SynExpr trees.
#include <algorithm>
#include <set>

#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

// Height limit of an expression tree: left-associative chains (`a + b + ...`) are parsed by loops, so
// the tree height, not the recursion of the parser, is what bounds the later recursive passes.
constexpr int kMaxTreeDepth = 256;

const std::set<std::string>& keywords() {
  static const std::set<std::string> k = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  return k;
}

// Binary operator levels, loosest first; level 6 is unary.
const std::vector<std::vector<std::string>>& binary_levels() {
  static const std::vector<std::vector<std::string>> levels = {
      {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
  return levels;
}

}  // namespace

std::string dotted_path(const SynExpr& e) {
  if (e.kind == SynKind::Name) return e.text;
  if (e.kind != SynKind::Attr) return "";
  std::string base = dotted_path(*e.items[0]);
  return base.empty() ? "" : base + "." + e.text;
}

bool Parser::is_keyword(const std::string& word) const {
  return keywords().count(word) > 0;
}

SynExprP Parser::make_node(SynKind kind, const SourceSpan& span, std::vector<SynExprP> items) {
  auto n = std::make_shared<SynExpr>();
  n->kind = kind;
  n->span = span;
  for (const SynExprP& it : items)
    if (it && it->depth + 1 > n->depth) n->depth = it->depth + 1;
  n->items = std::move(items);
  if (n->depth > kMaxTreeDepth)
    fail(span, "expression is nested too deeply (more than " + std::to_string(kMaxTreeDepth) + " levels)");
  return n;
}

SynExprP Parser::parse_expr() {
  DepthGuard guard(*this, peek().span);
  if (at_keyword("lambda")) fail(peek().span, "lambda expressions are not supported");
  SourceSpan begin = peek().span;
  SynExprP e = parse_or();
  if (at_keyword("if")) {
    advance();
    SynExprP cond = parse_or();
    if (!at_keyword("else")) fail(peek().span, "expected 'else' in conditional expression");
    advance();
    SynExprP other = parse_expr();
    return make_node(SynKind::IfExp, span_to_prev(begin), {cond, e, other});
  }
  if (at_op(":=")) fail(peek().span, "assignment expressions (':=') are not supported");
  return e;
}

namespace {

bool starts_expression(const Token& t, const Parser& p) {
  switch (t.kind) {
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
      return true;
    case TokenKind::Name:
      return !p.is_keyword(t.text) || t.text == "True" || t.text == "False" || t.text == "None" ||
             t.text == "not" || t.text == "lambda";
    case TokenKind::Op:
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
             t.text == "~" || t.text == "..." || t.text == "*";
    default:
      return false;
  }
}

}  // namespace

SynExprP Parser::parse_testlist() {
  SourceSpan begin = peek().span;
  SynExprP first = parse_expr();
  if (!at_op(",")) return first;
  std::vector<SynExprP> items{first};
  while (accept_op(",")) {
    if (!starts_expression(peek(), *this)) break;
    items.push_back(parse_expr());
  }
  return make_node(SynKind::Tuple, span_to_prev(begin), std::move(items));
}

SynExprP Parser::parse_or() {
  SourceSpan begin = peek().span;
  SynExprP e = parse_and();
  while (at_keyword("or")) {
    advance();
    SynExprP rhs = parse_and();
    e = make_node(SynKind::BoolOp, span_to_prev(begin), {e, rhs});
    e->text = "or";
  }
  return e;
}

SynExprP Parser::parse_and() {
  SourceSpan begin = peek().span;
  SynExprP e = parse_not();
  while (at_keyword("and")) {
    advance();
    SynExprP rhs = parse_not();
    e = make_node(SynKind::BoolOp, span_to_prev(begin), {e, rhs});
    e->text = "and";
  }
  return e;
}

SynExprP Parser::parse_not() {
  if (!at_keyword("not")) return parse_comparison();
  SourceSpan begin = advance().span;
  DepthGuard guard(*this, begin);
  SynExprP operand = parse_not();
  SynExprP e = make_node(SynKind::Unary, span_to_prev(begin), {operand});
  e->text = "not";
  return e;
}

SynExprP Parser::parse_comparison() {
  SourceSpan begin = peek().span;
  SynExprP first = parse_binary_level(0);
  std::vector<SynExprP> operands{first};
  std::vector<std::string> ops;
  for (;;) {
    std::string op;
    const Token& t = peek();
    if (t.kind == TokenKind::Op && (t.text == "<" || t.text == ">" || t.text == "==" || t.text == ">=" ||
                                    t.text == "<=" || t.text == "!=")) {
      op = t.text;
      advance();
    } else if (at_keyword("in")) {
      op = "in";
      advance();
    } else if (at_keyword("not") && at_keyword("in", 1)) {
      op = "not in";
      advance();
      advance();
    } else if (at_keyword("is")) {
      advance();
      op = "is";
      if (at_keyword("not")) {
        advance();
        op = "is not";
      }
    } else {
      break;
    }
    ops.push_back(op);
    operands.push_back(parse_binary_level(0));
  }
  if (ops.empty()) return first;
  SynExprP e = make_node(SynKind::Compare, span_to_prev(begin), std::move(operands));
  e->ops = std::move(ops);
  return e;
}

SynExprP Parser::parse_binary_level(int level) {
  if (level >= static_cast<int>(binary_levels().size())) return parse_unary();
  SourceSpan begin = peek().span;
  SynExprP e = parse_binary_level(level + 1);
  for (;;) {
    const Token& t = peek();
    if (t.kind != TokenKind::Op) break;
    const auto& ops = binary_levels()[level];
    if (std::find(ops.begin(), ops.end(), t.text) == ops.end()) break;
    std::string op = advance().text;
    SynExprP rhs = parse_binary_level(level + 1);
    e = make_node(SynKind::Binary, span_to_prev(begin), {e, rhs});
    e->text = op;
  }
  return e;
}

SynExprP Parser::parse_unary() {
  if (!(at_op("-") || at_op("+") || at_op("~"))) return parse_power();
  const Token& t = advance();
  SourceSpan begin = t.span;
  std::string op = t.text;
  DepthGuard guard(*this, begin);
  SynExprP operand = parse_unary();
  SynExprP e = make_node(SynKind::Unary, span_to_prev(begin), {operand});
  e->text = op;
  return e;
}

SynExprP Parser::parse_power() {
  SourceSpan begin = peek().span;
  SynExprP base = parse_primary();
  if (!accept_op("**")) return base;
  DepthGuard guard(*this, begin);
  SynExprP exponent = parse_unary();
  SynExprP e = make_node(SynKind::Binary, span_to_prev(begin), {base, exponent});
  e->text = "**";
  return e;
}

SynExprP Parser::parse_primary() {
  SourceSpan begin = peek().span;
  SynExprP e = parse_atom();
  for (;;) {
    if (accept_op(".")) {
      const Token& name = expect_name("expected an attribute name after '.'");
      std::string member = name.text;
      e = make_node(SynKind::Attr, span_to_prev(begin), {e});
      e->text = member;
    } else if (at_op("(")) {
      advance();
      SynExprP call = make_node(SynKind::Call, begin, {e});
      parse_call_args(*call);
      call->span = span_to_prev(begin);
      e = call;
    } else if (at_op("[")) {
      advance();
      SynExprP index = parse_subscript_index();
      e = make_node(SynKind::Subscript, span_to_prev(begin), {e, index});
    } else {
      return e;
    }
  }
}

SynExprP Parser::parse_atom() {
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::Int: {
      SynExprP e = make_node(SynKind::Int, t.span);
      e->int_value = t.int_value;
      e->text = t.text;
      advance();
      return e;
    }
    case TokenKind::Float: {
      SynExprP e = make_node(SynKind::Float, t.span);
      e->float_value = t.float_value;
      e->text = t.text;
      advance();
      return e;
    }
    case TokenKind::String: {
      SynExprP e = make_node(SynKind::String, t.span);
      while (peek().kind == TokenKind::String) e->text += advance().text;  // adjacent literals concatenate
      return e;
    }
    case TokenKind::Name: {
      SynKind k = t.text == "True"    ? SynKind::True
                  : t.text == "False" ? SynKind::False
                  : t.text == "None"  ? SynKind::None
                                      : SynKind::Name;
      if (k == SynKind::Name && is_keyword(t.text))
        fail(t.span, "expected an expression, found keyword '" + t.text + "'");
      SynExprP e = make_node(k, t.span);
      e->text = t.text;
      advance();
      return e;
    }
    case TokenKind::Op:
      if (t.text == "(" || t.text == "[" || t.text == "{") {
        Token open = advance();
        return parse_bracketed(open);
      }
      if (t.text == "...") return make_node(SynKind::Ellipsis, advance().span);
      break;
    default:
      break;
  }
  fail(t.span, "expected an expression, found " + describe_token(t));
}

SynExprP Parser::parse_bracketed(const Token& open) {
  std::string close = open.text == "(" ? ")" : open.text == "[" ? "]" : "}";
  SourceSpan begin = open.span;
  std::vector<SynExprP> items;
  bool saw_comma = false;
  bool dict = false;
  while (!at_op(close)) {
    SynExprP item = parse_expr();
    if (at_keyword("for")) fail(peek().span, "comprehensions are not supported");
    if (open.text == "{" && accept_op(":")) {
      dict = true;
      parse_expr();
    }
    items.push_back(item);
    if (!accept_op(",")) break;
    saw_comma = true;
  }
  if (!accept_op(close))
    fail(peek().span, "expected ',' or '" + close + "' to close '" + open.text + "' at line " +
                          std::to_string(begin.line) + ", found " + describe_token(peek()));
  SourceSpan span = span_to_prev(begin);
  if (open.text == "(") {
    if (items.size() == 1 && !saw_comma) {
      items[0]->parenthesized = true;
      return items[0];
    }
    SynExprP tuple = make_node(SynKind::Tuple, span, std::move(items));
    tuple->parenthesized = true;
    return tuple;
  }
  if (open.text == "[") return make_node(SynKind::List, span, std::move(items));
  return make_node(dict ? SynKind::Dict : SynKind::Set, span, std::move(items));
}

void Parser::parse_call_args(SynExpr& call) {
  SourceSpan open = tokens_[pos_ - 1].span;
  while (!at_op(")")) {
    SynExprP arg;
    if (at_op("*") || at_op("**")) {
      const Token& star = advance();
      SourceSpan begin = star.span;
      std::string text = star.text;
      SynExprP value = parse_expr();
      arg = make_node(SynKind::Star, span_to_prev(begin), {value});
      arg->text = text;
    } else if (peek().kind == TokenKind::Name && at_op("=", 1) && !is_keyword(peek().text)) {
      std::string keyword = advance().text;
      advance();
      arg = parse_expr();
      arg->keyword = keyword;
    } else {
      arg = parse_expr();
      if (at_keyword("for")) fail(peek().span, "comprehensions are not supported");
    }
    call.items.push_back(arg);
    if (arg->depth + 1 > call.depth) call.depth = arg->depth + 1;
    if (!accept_op(",")) break;
  }
  if (!accept_op(")"))
    fail(peek().span, "expected ',' or ')' in the arguments of the call at line " +
                          std::to_string(open.line) + ", found " + describe_token(peek()));
}

SynExprP Parser::parse_subscript_index() {
  SourceSpan begin = peek().span;
  std::vector<SynExprP> items;
  bool saw_comma = false;
  while (!at_op("]")) {
    SourceSpan item_begin = peek().span;
    SynExprP item;
    if (!at_op(":")) item = parse_expr();
    if (at_op(":")) {
      // items: start, stop[, step]; an omitted bound is a None node, as Python reads `x[:n]` as x[None:n].
      std::vector<SynExprP> bounds{item ? item : make_node(SynKind::None, item_begin)};
      while (accept_op(":"))
        bounds.push_back(!at_op(":") && !at_op("]") && !at_op(",") ? parse_expr()
                                                                   : make_node(SynKind::None, peek().span));
      item = make_node(SynKind::Slice, span_to_prev(item_begin), std::move(bounds));
    }
    items.push_back(item);
    if (!accept_op(",")) break;
    saw_comma = true;
  }
  if (!accept_op("]")) fail(peek().span, "expected ',' or ']' in subscript, found " + describe_token(peek()));
  if (items.empty()) fail(begin, "expected an index inside '[]'");
  if (items.size() == 1 && !saw_comma) return items[0];
  return make_node(SynKind::Tuple, span_to_prev(begin), std::move(items));
}

}  // namespace ptodist::frontend
