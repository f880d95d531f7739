// Constant folding of scalar expressions with Python semantics (used by specialize).
#include "const_fold.h"

#include <map>
#include <optional>

#include "ptodist/ir/scalar_eval.h"

namespace ptodist::transforms::detail {

using namespace ir;

namespace {

// A constant as Python sees it; the arithmetic is the shared evaluator's, as the runtime's is.
std::optional<ScalarValue> value_of(const Expr& e) {
  return literal_value(e);
}

// Adds the integer sum `e` to `terms` (variable id -> coefficient) and `constant`, with `sign`; false for
// anything but + and - over integer constants and variables.
bool linear_terms(const Expr& e, long long sign, std::map<int, long long>& terms, long long& constant) {
  if (!e) return false;  // an operand whose folding failed (reported)
  if (auto v = value_of(e)) {
    return !v->is_float() && !__builtin_add_overflow(constant, sign * v->i, &constant);
  }
  if (const auto* r = e->as<VarRef>()) {
    if (!r->var || !r->var->type || r->var->type->kind != TypeKind::Scalar ||
        dtype_is_float(r->var->type->dtype))
      return false;
    terms[r->var->id] += sign;
    return true;
  }
  const auto* bin = e->as<Binary>();
  if (!bin || (bin->op != BinaryOpKind::Add && bin->op != BinaryOpKind::Sub)) return false;
  return linear_terms(bin->lhs, sign, terms, constant) &&
         linear_terms(bin->rhs, bin->op == BinaryOpKind::Sub ? -sign : sign, terms, constant);
}

// `(k + C) - k` is C, as PyPTO's parser simplifies a slice extent `x[k : k + C]` (its arith analyzer), so
// the slice has a static shape. Integer + and - are exact, so the cancellation is.
Expr cancel_terms(const Binary& e, const Expr& self) {
  std::map<int, long long> terms;
  long long constant = 0;
  if (!linear_terms(self, 1, terms, constant)) return self;
  for (const auto& [id, coefficient] : terms)
    if (coefficient != 0) return self;
  return literal_expr(ScalarValue::of_int(constant), e.span);
}

Expr fold_binary(const Binary& e, const Expr& self, Builder& b) {
  auto l = value_of(e.lhs), r = value_of(e.rhs);
  if ((!l || !r) && (e.op == BinaryOpKind::Sub || e.op == BinaryOpKind::Add)) return cancel_terms(e, self);
  if (!l || !r) return self;
  ScalarResult v = eval_binary(e.op, *l, *r);
  if (!v.ok()) {
    b.diags().error(e.span, v.error + " in a constant expression; check the factory parameters");
    return nullptr;
  }
  return literal_expr(v.value, e.span);
}

Expr fold_compare(const Compare& e, const Expr& self, Builder& b) {
  auto l = value_of(e.lhs), r = value_of(e.rhs);
  if (!l || !r) return self;
  return b.bool_imm(eval_compare(e.op, *l, *r), e.span);
}

Expr fold_unary(const Unary& e, const Expr& self, Builder& b) {
  auto v = value_of(e.operand);
  if (!v) return self;
  ScalarResult r = eval_unary(e.op, *v);
  if (!r.ok()) {
    b.diags().error(e.span, r.error + " in a constant expression; check the factory parameters");
    return nullptr;
  }
  return literal_expr(r.value, e.span);
}

Expr fold_subscript(const Subscript& e, const Expr& self) {
  const std::vector<Expr>* elems = as_list(e.value);
  if (!elems || e.indices.size() != 1) return self;
  auto idx = value_of(e.indices[0]);
  if (!idx || idx->is_float()) return self;
  long long n = static_cast<long long>(elems->size());
  long long k = idx->i < 0 ? idx->i + n : idx->i;
  if (k < 0 || k >= n) return self;  // the verifier reports the out-of-range index
  return (*elems)[k];
}

}  // namespace

bool is_scalar_constant(const Expr& e) {
  return value_of(e).has_value();
}

Expr fold_constant(const Expr& e, Builder& b) {
  if (!e) return e;
  switch (e->kind) {
    case ExprKind::Binary:
      return fold_binary(*e->as<Binary>(), e, b);
    case ExprKind::Compare:
      return fold_compare(*e->as<Compare>(), e, b);
    case ExprKind::Unary:
      return fold_unary(*e->as<Unary>(), e, b);
    case ExprKind::BoolOp: {
      auto* o = e->as<BoolOp>();
      auto l = value_of(o->lhs);
      if (!l) return e;
      // Python: `a and b` is a when a is falsy, else b; `a or b` is a when a is truthy, else b.
      bool pick_lhs = (o->op == BoolOpKind::And) ? !l->truthy() : l->truthy();
      return pick_lhs ? o->lhs : o->rhs;
    }
    case ExprKind::IfExp: {
      auto* i = e->as<IfExp>();
      auto c = value_of(i->cond);
      return c ? (c->truthy() ? i->then_value : i->else_value) : e;
    }
    case ExprKind::Subscript:
      return fold_subscript(*e->as<Subscript>(), e);
    default:
      return e;
  }
}

}  // namespace ptodist::transforms::detail
