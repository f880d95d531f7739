// Constant folding of scalar expressions with Python semantics (used by specialize).
#include "const_fold.h"

#include <cmath>
#include <optional>

namespace ptodist::transforms::detail {

using namespace ir;

namespace {

// A constant as Python sees it: bools are ints in arithmetic.
struct Value {
  bool is_float = false;
  bool is_bool = false;
  long long i = 0;
  double f = 0;
  double as_double() const { return is_float ? f : static_cast<double>(i); }
  bool truthy() const { return is_float ? f != 0 : i != 0; }
};

std::optional<Value> value_of(const Expr& e) {
  if (!e) return std::nullopt;
  if (auto* i = e->as<IntImm>()) return Value{false, false, i->value, 0};
  if (auto* b = e->as<BoolImm>()) return Value{false, true, b->value ? 1 : 0, 0};
  if (auto* f = e->as<FloatImm>()) return Value{true, false, 0, f->value};
  return std::nullopt;
}

Expr make(const Value& v, Builder& b, SourceSpan span) {
  if (v.is_float) return b.float_imm(v.f, span);
  if (v.is_bool) return b.bool_imm(v.i != 0, span);
  return b.int_imm(v.i, span);
}

long long floor_div(long long a, long long b) {
  long long q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

long long py_mod(long long a, long long b) {
  long long r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

long long int_pow(long long base, long long exp) {
  long long r = 1;
  for (long long k = 0; k < exp; ++k) r *= base;
  return r;
}

std::optional<Value> fold_float_binary(BinaryOpKind op, double a, double b) {
  switch (op) {
    case BinaryOpKind::Add:
      return Value{true, false, 0, a + b};
    case BinaryOpKind::Sub:
      return Value{true, false, 0, a - b};
    case BinaryOpKind::Mul:
      return Value{true, false, 0, a * b};
    case BinaryOpKind::Div:
      return Value{true, false, 0, a / b};
    case BinaryOpKind::FloorDiv:
      return Value{true, false, 0, std::floor(a / b)};
    case BinaryOpKind::Mod:
      return Value{true, false, 0, a - b * std::floor(a / b)};
    case BinaryOpKind::Pow:
      return Value{true, false, 0, std::pow(a, b)};
    default:
      return std::nullopt;  // bit ops on floats are a type error the builder reports
  }
}

std::optional<Value> fold_int_binary(BinaryOpKind op, long long a, long long b) {
  auto iv = [](long long v) { return Value{false, false, v, 0}; };
  switch (op) {
    case BinaryOpKind::Add:
      return iv(a + b);
    case BinaryOpKind::Sub:
      return iv(a - b);
    case BinaryOpKind::Mul:
      return iv(a * b);
    case BinaryOpKind::Div:
      return Value{true, false, 0, static_cast<double>(a) / static_cast<double>(b)};
    case BinaryOpKind::FloorDiv:
      return iv(floor_div(a, b));
    case BinaryOpKind::Mod:
      return iv(py_mod(a, b));
    case BinaryOpKind::Pow:
      if (b < 0) return Value{true, false, 0, std::pow(static_cast<double>(a), static_cast<double>(b))};
      return iv(int_pow(a, b));
    case BinaryOpKind::BitAnd:
      return iv(a & b);
    case BinaryOpKind::BitOr:
      return iv(a | b);
    case BinaryOpKind::BitXor:
      return iv(a ^ b);
    case BinaryOpKind::Shl:
      return (b < 0 || b > 62) ? std::nullopt : std::optional<Value>(iv(a << b));
    case BinaryOpKind::Shr:
      return b < 0 ? std::nullopt : std::optional<Value>(iv(b > 62 ? (a < 0 ? -1 : 0) : a >> b));
  }
  return std::nullopt;
}

bool divides_by_zero(BinaryOpKind op, const Value& r) {
  bool div = op == BinaryOpKind::Div || op == BinaryOpKind::FloorDiv || op == BinaryOpKind::Mod;
  return div && r.as_double() == 0;
}

Expr fold_binary(const Binary& e, const Expr& self, Builder& b) {
  auto l = value_of(e.lhs), r = value_of(e.rhs);
  if (!l || !r) return self;
  if (divides_by_zero(e.op, *r)) {
    b.diags().error(e.span, "division by zero in a constant expression; check the factory parameters");
    return nullptr;
  }
  auto v = (l->is_float || r->is_float) ? fold_float_binary(e.op, l->as_double(), r->as_double())
                                        : fold_int_binary(e.op, l->i, r->i);
  return v ? make(*v, b, e.span) : self;
}

Expr fold_compare(const Compare& e, const Expr& self, Builder& b) {
  auto l = value_of(e.lhs), r = value_of(e.rhs);
  if (!l || !r) return self;
  double x = l->as_double(), y = r->as_double();
  bool both_int = !l->is_float && !r->is_float;
  bool res = false;
  switch (e.op) {
    case CompareOpKind::Eq:
      res = both_int ? l->i == r->i : x == y;
      break;
    case CompareOpKind::Ne:
      res = both_int ? l->i != r->i : x != y;
      break;
    case CompareOpKind::Lt:
      res = both_int ? l->i < r->i : x < y;
      break;
    case CompareOpKind::Le:
      res = both_int ? l->i <= r->i : x <= y;
      break;
    case CompareOpKind::Gt:
      res = both_int ? l->i > r->i : x > y;
      break;
    case CompareOpKind::Ge:
      res = both_int ? l->i >= r->i : x >= y;
      break;
  }
  return b.bool_imm(res, e.span);
}

Expr fold_unary(const Unary& e, const Expr& self, Builder& b) {
  auto v = value_of(e.operand);
  if (!v) return self;
  switch (e.op) {
    case UnaryOpKind::Neg:
      return v->is_float ? b.float_imm(-v->f, e.span) : b.int_imm(-v->i, e.span);
    case UnaryOpKind::Pos:
      return v->is_float ? b.float_imm(v->f, e.span) : b.int_imm(v->i, e.span);
    case UnaryOpKind::Not:
      return b.bool_imm(!v->truthy(), e.span);
    case UnaryOpKind::Invert:
      return v->is_float ? self : b.int_imm(~v->i, e.span);
  }
  return self;
}

Expr fold_subscript(const Subscript& e, const Expr& self) {
  const std::vector<Expr>* elems = as_list(e.value);
  if (!elems || e.indices.size() != 1) return self;
  auto idx = value_of(e.indices[0]);
  if (!idx || idx->is_float) return self;
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
