// Default traversals: the Walker visits every child expression and nested block; the Rewriter rebuilds
// a node only when one of its children was replaced (types are kept: a rewrite that changes a type
// must rebuild the node itself, through the Builder).
#include "ptodist/ir/functor.h"

namespace ptodist::ir {

namespace {

template <typename F>
void for_each_child(const Expr& e, F&& f) {
  auto each = [&](const std::vector<Expr>& v) {
    for (const Expr& x : v) f(x);
  };
  switch (e->kind) {
    case ExprKind::Unary:
      f(e->as<Unary>()->operand);
      break;
    case ExprKind::Binary:
      f(e->as<Binary>()->lhs);
      f(e->as<Binary>()->rhs);
      break;
    case ExprKind::Compare:
      f(e->as<Compare>()->lhs);
      f(e->as<Compare>()->rhs);
      break;
    case ExprKind::BoolOp:
      f(e->as<BoolOp>()->lhs);
      f(e->as<BoolOp>()->rhs);
      break;
    case ExprKind::IfExp: {
      auto x = e->as<IfExp>();
      f(x->cond);
      f(x->then_value);
      f(x->else_value);
      break;
    }
    case ExprKind::List:
      each(e->as<List>()->elements);
      break;
    case ExprKind::Tuple:
      each(e->as<Tuple>()->elements);
      break;
    case ExprKind::Subscript:
      f(e->as<Subscript>()->value);
      each(e->as<Subscript>()->indices);
      break;
    case ExprKind::OpCall:
      each(e->as<OpCall>()->args);
      each(e->as<OpCall>()->varargs);
      break;
    case ExprKind::FuncCall:
      each(e->as<FuncCall>()->args);
      f(e->as<FuncCall>()->device);
      break;
    default:
      break;  // leaves
  }
}

}  // namespace

void Walker::visit_expr(const Expr& e) {
  if (!e) return;
  for_each_child(e, [&](const Expr& c) {
    if (c) visit_expr(c);
  });
}

void Walker::visit_stmt(const Stmt& s) {
  if (!s) return;
  switch (s->kind) {
    case StmtKind::Assign:
      visit_expr(s->as<Assign>()->value);
      break;
    case StmtKind::ExprStmt:
      visit_expr(s->as<ExprStmt>()->value);
      break;
    case StmtKind::For: {
      auto f = s->as<For>();
      visit_expr(f->start);
      visit_expr(f->stop);
      visit_expr(f->step);
      visit_expr(f->stage);
      visit_block(f->body);
      break;
    }
    case StmtKind::While: {
      auto w = s->as<While>();
      visit_expr(w->cond);
      visit_block(w->body);
      break;
    }
    case StmtKind::If: {
      auto i = s->as<If>();
      visit_expr(i->cond);
      visit_block(i->then_body);
      visit_block(i->else_body);
      break;
    }
    case StmtKind::ManualScope:
      visit_block(s->as<ManualScope>()->body);
      break;
    case StmtKind::Return:
      for (const Expr& v : s->as<Return>()->values) visit_expr(v);
      break;
    case StmtKind::Pass:
      break;
  }
}

void Walker::visit_block(const Block& b) {
  for (const Stmt& s : b) visit_stmt(s);
}

void Walker::visit_function(const Function& f) {
  if (f) visit_block(f->body);
}

namespace {

// Rewrites each element; true when any changed.
bool rewrite_all(Rewriter& r, const std::vector<Expr>& in, std::vector<Expr>& out) {
  bool changed = false;
  out.clear();
  for (const Expr& x : in) {
    out.push_back(x ? r.rewrite_expr(x) : x);
    changed |= out.back() != x;
  }
  return changed;
}

template <typename T>
std::shared_ptr<T> copy_of(const Expr& e) {
  return std::make_shared<T>(*e->as<T>());
}

Expr sub(Rewriter& r, const Expr& e) {
  return e ? r.rewrite_expr(e) : e;
}

template <typename T>
Expr rebuild_pair(Rewriter& r, const Expr& e) {
  auto x = e->as<T>();
  Expr l = sub(r, x->lhs), rr = sub(r, x->rhs);
  if (l == x->lhs && rr == x->rhs) return e;
  auto n = copy_of<T>(e);
  n->lhs = l;
  n->rhs = rr;
  return n;
}

template <typename T>
Expr rebuild_elements(Rewriter& r, const Expr& e) {
  std::vector<Expr> out;
  if (!rewrite_all(r, e->as<T>()->elements, out)) return e;
  auto n = copy_of<T>(e);
  n->elements = std::move(out);
  return n;
}

Expr rebuild_call(Rewriter& r, const Expr& e) {
  auto x = e->as<OpCall>();
  std::vector<Expr> args, varargs;
  bool changed = rewrite_all(r, x->args, args);
  changed |= rewrite_all(r, x->varargs, varargs);
  if (!changed) return e;
  auto n = copy_of<OpCall>(e);
  n->args = std::move(args);
  n->varargs = std::move(varargs);
  return n;
}

Expr rebuild_func_call(Rewriter& r, const Expr& e) {
  auto x = e->as<FuncCall>();
  std::vector<Expr> args;
  bool changed = rewrite_all(r, x->args, args);
  Expr device = sub(r, x->device);
  if (!changed && device == x->device) return e;
  auto n = copy_of<FuncCall>(e);
  n->args = std::move(args);
  n->device = device;
  return n;
}

Expr rebuild_misc(Rewriter& r, const Expr& e) {
  if (auto x = e->as<Unary>()) {
    Expr o = sub(r, x->operand);
    if (o == x->operand) return e;
    auto n = copy_of<Unary>(e);
    n->operand = o;
    return n;
  }
  if (auto x = e->as<IfExp>()) {
    Expr c = sub(r, x->cond), t = sub(r, x->then_value), f = sub(r, x->else_value);
    if (c == x->cond && t == x->then_value && f == x->else_value) return e;
    auto n = copy_of<IfExp>(e);
    n->cond = c;
    n->then_value = t;
    n->else_value = f;
    return n;
  }
  if (auto x = e->as<Subscript>()) {
    Expr v = sub(r, x->value);
    std::vector<Expr> idx;
    bool changed = rewrite_all(r, x->indices, idx);
    if (v == x->value && !changed) return e;
    auto n = copy_of<Subscript>(e);
    n->value = v;
    n->indices = std::move(idx);
    return n;
  }
  return e;
}

}  // namespace

Expr Rewriter::rewrite_expr(const Expr& e) {
  if (!e) return e;
  switch (e->kind) {
    case ExprKind::Binary:
      return rebuild_pair<Binary>(*this, e);
    case ExprKind::Compare:
      return rebuild_pair<Compare>(*this, e);
    case ExprKind::BoolOp:
      return rebuild_pair<BoolOp>(*this, e);
    case ExprKind::List:
      return rebuild_elements<List>(*this, e);
    case ExprKind::Tuple:
      return rebuild_elements<Tuple>(*this, e);
    case ExprKind::OpCall:
      return rebuild_call(*this, e);
    case ExprKind::FuncCall:
      return rebuild_func_call(*this, e);
    default:
      return rebuild_misc(*this, e);
  }
}

Block Rewriter::rewrite_block(const Block& b) {
  Block out;
  for (const Stmt& s : b) {
    Block r = rewrite_stmt(s);
    out.insert(out.end(), r.begin(), r.end());
  }
  return out;
}

namespace {

bool same_block(const Block& a, const Block& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

template <typename T>
std::shared_ptr<T> copy_stmt(const Stmt& s) {
  return std::make_shared<T>(*s->as<T>());
}

Stmt rewrite_loop(Rewriter& r, const Stmt& s) {
  auto f = s->as<For>();
  Expr start = sub(r, f->start), stop = sub(r, f->stop), step = sub(r, f->step), stage = sub(r, f->stage);
  Block body = r.rewrite_block(f->body);
  if (start == f->start && stop == f->stop && step == f->step && stage == f->stage &&
      same_block(body, f->body))
    return s;
  auto n = copy_stmt<For>(s);
  n->start = start;
  n->stop = stop;
  n->step = step;
  n->stage = stage;
  n->body = std::move(body);
  return n;
}

Stmt rewrite_while(Rewriter& r, const Stmt& s) {
  auto w = s->as<While>();
  Expr cond = sub(r, w->cond);
  Block body = r.rewrite_block(w->body);
  if (cond == w->cond && same_block(body, w->body)) return s;
  auto n = copy_stmt<While>(s);
  n->cond = cond;
  n->body = std::move(body);
  return n;
}

Stmt rewrite_if(Rewriter& r, const Stmt& s) {
  auto i = s->as<If>();
  Expr cond = sub(r, i->cond);
  Block then_body = r.rewrite_block(i->then_body), else_body = r.rewrite_block(i->else_body);
  if (cond == i->cond && same_block(then_body, i->then_body) && same_block(else_body, i->else_body)) return s;
  auto n = copy_stmt<If>(s);
  n->cond = cond;
  n->then_body = std::move(then_body);
  n->else_body = std::move(else_body);
  return n;
}

Stmt rewrite_simple(Rewriter& r, const Stmt& s) {
  if (auto a = s->as<Assign>()) {
    Expr v = sub(r, a->value);
    if (v == a->value) return s;
    auto n = copy_stmt<Assign>(s);
    n->value = v;
    return n;
  }
  if (auto e = s->as<ExprStmt>()) {
    Expr v = sub(r, e->value);
    if (v == e->value) return s;
    auto n = copy_stmt<ExprStmt>(s);
    n->value = v;
    return n;
  }
  if (auto m = s->as<ManualScope>()) {
    Block body = r.rewrite_block(m->body);
    if (same_block(body, m->body)) return s;
    auto n = copy_stmt<ManualScope>(s);
    n->body = std::move(body);
    return n;
  }
  if (auto ret = s->as<Return>()) {
    std::vector<Expr> vals;
    if (!rewrite_all(r, ret->values, vals)) return s;
    auto n = copy_stmt<Return>(s);
    n->values = std::move(vals);
    return n;
  }
  return s;
}

}  // namespace

Block Rewriter::rewrite_stmt(const Stmt& s) {
  if (!s) return {};
  switch (s->kind) {
    case StmtKind::For:
      return {rewrite_loop(*this, s)};
    case StmtKind::While:
      return {rewrite_while(*this, s)};
    case StmtKind::If:
      return {rewrite_if(*this, s)};
    default:
      return {rewrite_simple(*this, s)};
  }
}

Function Rewriter::rewrite_function(const Function& f) {
  if (!f) return f;
  Block body = rewrite_block(f->body);
  if (same_block(body, f->body)) return f;
  auto n = std::make_shared<FunctionNode>(*f);
  n->body = std::move(body);
  return n;
}

}  // namespace ptodist::ir
