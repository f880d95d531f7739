// Expression helpers: named slots of op calls and constant evaluation for contracts and passes.
#include "ptodist/ir/expr.h"

#include <climits>
#include <cmath>

#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

const Expr& OpCall::arg(std::string_view name) const {
  static const Expr kNone;
  if (!op) return kNone;
  int i = op->param_index(name);
  if (i < 0 || i >= static_cast<int>(args.size())) return kNone;
  return args[i];
}

namespace {

// Integer folding with Python's semantics; nullopt where Python would raise or the result would not
// fit in 64 bits (so hostile constants cannot trigger undefined behaviour).
std::optional<long long> fold_int(BinaryOpKind op, long long a, long long b) {
  long long r = 0;
  switch (op) {
    case BinaryOpKind::Add:
      return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional<long long>(r);
    case BinaryOpKind::Sub:
      return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional<long long>(r);
    case BinaryOpKind::Mul:
      return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<long long>(r);
    case BinaryOpKind::FloorDiv:
      if (b == 0 || (a == LLONG_MIN && b == -1)) return std::nullopt;
      // Python floors toward negative infinity.
      return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
    case BinaryOpKind::Mod: {
      if (b == 0 || (a == LLONG_MIN && b == -1)) return std::nullopt;
      long long m = a % b;
      return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
    }
    case BinaryOpKind::BitAnd:
      return a & b;
    case BinaryOpKind::BitOr:
      return a | b;
    case BinaryOpKind::BitXor:
      return a ^ b;
    case BinaryOpKind::Shl:
      if (b < 0 || b > 62 || a < 0 || (a >> (62 - b)) != 0) return std::nullopt;
      return a << b;
    case BinaryOpKind::Shr:
      return (b < 0 || b > 63) ? std::nullopt : std::optional<long long>(a >> b);
    case BinaryOpKind::Pow: {
      if (b < 0) return std::nullopt;  // a float in Python
      if (a == 0 || a == 1) return b == 0 ? 1 : a;
      if (a == -1) return b % 2 ? -1 : 1;
      long long p = 1;  // |a| >= 2: overflows within 63 steps
      for (long long i = 0; i < b; ++i)
        if (__builtin_mul_overflow(p, a, &p)) return std::nullopt;
      return p;
    }
    case BinaryOpKind::Div:
      return std::nullopt;  // true division gives a float
  }
  return std::nullopt;
}

}  // namespace

std::optional<long long> as_const_int(const Expr& e) {
  if (!e) return std::nullopt;
  if (auto i = e->as<IntImm>()) return i->value;
  if (auto u = e->as<Unary>()) {
    auto v = as_const_int(u->operand);
    if (!v) return std::nullopt;
    if (u->op == UnaryOpKind::Neg) return *v == LLONG_MIN ? std::nullopt : std::optional<long long>(-*v);
    if (u->op == UnaryOpKind::Pos) return *v;
    if (u->op == UnaryOpKind::Invert) return ~*v;
    return std::nullopt;
  }
  if (auto b = e->as<Binary>()) {
    auto l = as_const_int(b->lhs), r = as_const_int(b->rhs);
    if (!l || !r) return std::nullopt;
    return fold_int(b->op, *l, *r);
  }
  return std::nullopt;
}

std::optional<double> as_const_float(const Expr& e) {
  if (!e) return std::nullopt;
  if (auto f = e->as<FloatImm>()) return f->value;
  if (auto i = as_const_int(e)) return static_cast<double>(*i);
  if (auto u = e->as<Unary>(); u && u->op == UnaryOpKind::Neg) {
    auto v = as_const_float(u->operand);
    if (v) return -*v;
  }
  return std::nullopt;
}

const std::vector<Expr>* as_list(const Expr& e) {
  if (!e) return nullptr;
  if (auto l = e->as<List>()) return &l->elements;
  if (auto t = e->as<Tuple>()) return &t->elements;
  return nullptr;
}

}  // namespace ptodist::ir
