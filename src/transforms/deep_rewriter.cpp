// DeepRewriter: copies a function node by node so passes can change types and variables everywhere.
#include "rewrite_util.h"

namespace ptodist::transforms::detail {

using namespace ir;

Var DeepRewriter::map_var(const Var& v) {
  if (!v) return v;
  auto it = var_map_.find(v.get());
  if (it != var_map_.end()) return it->second;
  Type t = map_type(v->type);
  Var out = v;
  if (t != v->type) {
    auto c = std::make_shared<VarNode>(*v);
    c->type = t;
    out = c;
  }
  var_map_[v.get()] = out;
  return out;
}

std::vector<Expr> DeepRewriter::rewrite_exprs(const std::vector<Expr>& es) {
  std::vector<Expr> out;
  out.reserve(es.size());
  for (const Expr& e : es) out.push_back(rewrite_opt(e));
  return out;
}

Expr DeepRewriter::rewrite_expr(const Expr& e) {
  return rebuild_expr(e);
}

Expr DeepRewriter::rebuild_expr(const Expr& e) {
  if (!e) return e;
  auto c = copy_expr(*e);
  if (c->type) c->type = map_type(c->type);
  switch (c->kind) {
    case ExprKind::VarRef: {
      auto* r = static_cast<VarRef*>(c.get());
      r->var = map_var(r->var);
      break;
    }
    case ExprKind::Unary: {
      auto* u = static_cast<Unary*>(c.get());
      u->operand = rewrite_opt(u->operand);
      break;
    }
    case ExprKind::Binary: {
      auto* b = static_cast<Binary*>(c.get());
      b->lhs = rewrite_opt(b->lhs);
      b->rhs = rewrite_opt(b->rhs);
      break;
    }
    case ExprKind::Compare: {
      auto* b = static_cast<Compare*>(c.get());
      b->lhs = rewrite_opt(b->lhs);
      b->rhs = rewrite_opt(b->rhs);
      break;
    }
    case ExprKind::BoolOp: {
      auto* b = static_cast<BoolOp*>(c.get());
      b->lhs = rewrite_opt(b->lhs);
      b->rhs = rewrite_opt(b->rhs);
      break;
    }
    case ExprKind::IfExp: {
      auto* i = static_cast<IfExp*>(c.get());
      i->cond = rewrite_opt(i->cond);
      i->then_value = rewrite_opt(i->then_value);
      i->else_value = rewrite_opt(i->else_value);
      break;
    }
    case ExprKind::List: {
      auto* l = static_cast<List*>(c.get());
      l->elements = rewrite_exprs(l->elements);
      break;
    }
    case ExprKind::Tuple: {
      auto* l = static_cast<Tuple*>(c.get());
      l->elements = rewrite_exprs(l->elements);
      break;
    }
    case ExprKind::Subscript: {
      auto* s = static_cast<Subscript*>(c.get());
      s->value = rewrite_opt(s->value);
      s->indices = rewrite_exprs(s->indices);
      break;
    }
    case ExprKind::OpCall: {
      auto* o = static_cast<OpCall*>(c.get());
      o->args = rewrite_exprs(o->args);
      o->varargs = rewrite_exprs(o->varargs);
      break;
    }
    case ExprKind::FuncCall: {
      auto* f = static_cast<FuncCall*>(c.get());
      f->args = rewrite_exprs(f->args);
      f->device = rewrite_opt(f->device);
      break;
    }
    default:
      break;  // leaves
  }
  return c;
}

Block DeepRewriter::rewrite_block(const Block& b) {
  Block out;
  for (const Stmt& s : b)
    for (Stmt& r : rewrite_stmt(s)) out.push_back(std::move(r));
  return out;
}

Block DeepRewriter::rewrite_stmt(const Stmt& s) {
  auto c = copy_stmt(*s);
  switch (c->kind) {
    case StmtKind::Assign: {
      auto* a = static_cast<Assign*>(c.get());
      a->value = rewrite_opt(a->value);
      for (Var& v : a->targets) v = map_var(v);
      if (a->annotation) a->annotation = map_type(a->annotation);
      break;
    }
    case StmtKind::ExprStmt: {
      auto* x = static_cast<ExprStmt*>(c.get());
      x->value = rewrite_opt(x->value);
      break;
    }
    case StmtKind::For: {
      auto* f = static_cast<For*>(c.get());
      f->iv = map_var(f->iv);
      f->start = rewrite_opt(f->start);
      f->stop = rewrite_opt(f->stop);
      f->step = rewrite_opt(f->step);
      f->stage = rewrite_opt(f->stage);
      f->body = rewrite_block(f->body);
      break;
    }
    case StmtKind::While: {
      auto* w = static_cast<While*>(c.get());
      w->cond = rewrite_opt(w->cond);
      w->body = rewrite_block(w->body);
      break;
    }
    case StmtKind::If: {
      auto* i = static_cast<If*>(c.get());
      i->cond = rewrite_opt(i->cond);
      i->then_body = rewrite_block(i->then_body);
      i->else_body = rewrite_block(i->else_body);
      break;
    }
    case StmtKind::ManualScope: {
      auto* m = static_cast<ManualScope*>(c.get());
      m->body = rewrite_block(m->body);
      break;
    }
    case StmtKind::Return: {
      auto* r = static_cast<Return*>(c.get());
      r->values = rewrite_exprs(r->values);
      break;
    }
    case StmtKind::Pass:
      break;
  }
  return {c};
}

Function DeepRewriter::rewrite_function(const Function& f) {
  auto c = std::make_shared<FunctionNode>(*f);
  for (Param& p : c->params) p.var = map_var(p.var);
  for (Type& t : c->return_types) t = map_type(t);
  c->body = rewrite_block(f->body);
  return c;
}

}  // namespace ptodist::transforms::detail
