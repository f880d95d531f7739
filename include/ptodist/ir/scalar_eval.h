// The one scalar evaluator: Python's semantics on 64-bit integers, doubles and bools, shared by the
// builder's folding, specialize's folding and the runtime, so a constant folds to what it computes.
#pragma once

#include <optional>
#include <string>

#include "ptodist/ir/expr.h"

namespace ptodist::ir {

// A scalar as Python sees it. Integers are checked rather than arbitrary-precision: a result outside
// 64 bits is an error, never a wrapped value.
struct ScalarValue {
  enum class Kind { Int, Float, Bool };
  Kind kind = Kind::Int;
  long long i = 0;  // Int and Bool (0 or 1)
  double f = 0;     // Float

  static ScalarValue of_int(long long v) { return {Kind::Int, v, 0}; }
  static ScalarValue of_float(double v) { return {Kind::Float, 0, v}; }
  static ScalarValue of_bool(bool v) { return {Kind::Bool, v ? 1 : 0, 0}; }
  bool is_float() const { return kind == Kind::Float; }
  bool truthy() const { return is_float() ? f != 0 : i != 0; }
  double as_double() const { return is_float() ? f : static_cast<double>(i); }
};

// A value, or the message Python's exception would carry (`error` non-empty), e.g. "integer division
// by zero", "integer overflow: 2 ** 64 does not fit in 64 bits".
struct ScalarResult {
  ScalarValue value;
  std::string error;
  bool ok() const { return error.empty(); }
};

// `a op b` as Python computes it: bools are ints in arithmetic (and stay bools under & | ^), int / int
// and int ** negative int give floats, // and % floor, shifts by a negative count and division by zero
// are errors, and an integer result that does not fit in 64 bits is an error. Bounded in time.
ScalarResult eval_binary(BinaryOpKind op, const ScalarValue& a, const ScalarValue& b);

// `-a`, `+a`, `~a`, `not a` (`~` of a float is an error, `-a` of INT64_MIN overflows).
ScalarResult eval_unary(UnaryOpKind op, const ScalarValue& a);

// `a op b` with Python's exact comparison of an integer with a float (NaN compares unequal).
bool eval_compare(CompareOpKind op, const ScalarValue& a, const ScalarValue& b);

// The value of an IntImm, FloatImm or BoolImm; nullopt for anything else.
std::optional<ScalarValue> literal_value(const Expr& e);

// The literal (IntImm INT64, FloatImm FP32 or BoolImm) holding `v`, typed as the builder types them.
Expr literal_expr(const ScalarValue& v, SourceSpan span);

// The value as Python's repr prints it (used in messages and by the differential tester).
std::string scalar_repr(const ScalarValue& v);

}  // namespace ptodist::ir
