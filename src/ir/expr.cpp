// Expression helpers: named slots of op calls and constant evaluation for contracts and passes.
#include "ptodist/ir/expr.h"

#include <climits>
#include <cmath>

#include "ptodist/ir/op_table.h"
#include "ptodist/ir/scalar_eval.h"

namespace ptodist::ir {

const Expr& OpCall::arg(std::string_view name) const {
  static const Expr kNone;
  if (!op) return kNone;
  int i = op_info(op->id).param_index(name);  // slots follow the op's signature, not an alias's
  if (i < 0 || i >= static_cast<int>(args.size())) return kNone;
  return args[i];
}

namespace {

// Integer folding by the shared evaluator; nullopt where Python would raise, the result would not fit
// in 64 bits, or it is not an integer (`/`, `**` with a negative exponent).
std::optional<long long> fold_int(BinaryOpKind op, long long a, long long b) {
  ScalarResult r = eval_binary(op, ScalarValue::of_int(a), ScalarValue::of_int(b));
  if (!r.ok() || r.value.is_float()) return std::nullopt;
  return r.value.i;
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
