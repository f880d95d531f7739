// The one scalar evaluator, following CPython's int and float objects (Objects/longobject.c,
// Objects/floatobject.c) with integers checked to 64 bits.
#include "ptodist/ir/scalar_eval.h"

#include <charconv>
#include <climits>
#include <cmath>

namespace ptodist::ir {
namespace {

using Kind = ScalarValue::Kind;

ScalarResult value(ScalarValue v) {
  return {v, {}};
}
ScalarResult error(std::string message) {
  return {{}, std::move(message)};
}

const char* op_text(BinaryOpKind op) {
  static const char* names[] = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"};
  return names[static_cast<int>(op)];
}

ScalarResult overflow(BinaryOpKind op, long long a, long long b) {
  return error("integer overflow: " + std::to_string(a) + " " + op_text(op) + " " + std::to_string(b) +
               " does not fit in 64 bits");
}

// Python's int / int is the correctly rounded quotient; a long double holds every int64 exactly.
double true_divide(long long a, long long b) {
  const long long exact = 1LL << 53;
  if (a > -exact && a < exact && b > -exact && b < exact)
    return static_cast<double>(a) / static_cast<double>(b);
  return static_cast<double>(static_cast<long double>(a) / static_cast<long double>(b));
}

// Exponentiation by squaring: at most 63 squarings before an overflow, whatever the exponent.
ScalarResult int_power(long long a, long long b) {
  if (b < 0) {
    if (a == 0) return error("0.0 cannot be raised to a negative power");
    return value(ScalarValue::of_float(std::pow(static_cast<double>(a), static_cast<double>(b))));
  }
  if (a == 0 || a == 1) return value(ScalarValue::of_int(b == 0 ? 1 : a));
  if (a == -1) return value(ScalarValue::of_int(b % 2 ? -1 : 1));
  long long result = 1, base = a;
  for (long long e = b; e > 0; e >>= 1) {
    if ((e & 1) && __builtin_mul_overflow(result, base, &result)) return overflow(BinaryOpKind::Pow, a, b);
    if (e > 1 && __builtin_mul_overflow(base, base, &base)) return overflow(BinaryOpKind::Pow, a, b);
  }
  return value(ScalarValue::of_int(result));
}

ScalarResult shift(BinaryOpKind op, long long a, long long b) {
  if (b < 0) return error("negative shift count");
  if (op == BinaryOpKind::Shr) return value(ScalarValue::of_int(b >= 64 ? (a < 0 ? -1 : 0) : a >> b));
  if (a == 0) return value(ScalarValue::of_int(0));
  if (b >= 64) return overflow(op, a, b);
  __int128 r = static_cast<__int128>(a) * (static_cast<__int128>(1) << b);
  if (r > LLONG_MAX || r < LLONG_MIN) return overflow(op, a, b);
  return value(ScalarValue::of_int(static_cast<long long>(r)));
}

ScalarResult int_binary(BinaryOpKind op, const ScalarValue& x, const ScalarValue& y) {
  long long a = x.i, b = y.i, r = 0;
  auto checked = [&](bool overflowed) {
    return overflowed ? overflow(op, a, b) : value(ScalarValue::of_int(r));
  };
  bool both_bool = x.kind == Kind::Bool && y.kind == Kind::Bool;
  auto bits = [&](long long v) {
    return value(both_bool ? ScalarValue::of_bool(v != 0) : ScalarValue::of_int(v));
  };
  switch (op) {
    case BinaryOpKind::Add:
      return checked(__builtin_add_overflow(a, b, &r));
    case BinaryOpKind::Sub:
      return checked(__builtin_sub_overflow(a, b, &r));
    case BinaryOpKind::Mul:
      return checked(__builtin_mul_overflow(a, b, &r));
    case BinaryOpKind::Div:
      if (b == 0) return error("division by zero");
      return value(ScalarValue::of_float(true_divide(a, b)));
    case BinaryOpKind::FloorDiv:
    case BinaryOpKind::Mod: {
      if (b == 0)
        return error(op == BinaryOpKind::Mod ? "integer modulo by zero" : "integer division by zero");
      if (b == -1) {  // a / -1 traps on INT64_MIN in hardware: -a is the quotient, 0 the remainder
        if (op == BinaryOpKind::Mod) return value(ScalarValue::of_int(0));
        return checked(__builtin_sub_overflow(0LL, a, &r));
      }
      long long q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) --q, m += b;  // Python floors toward negative infinity
      return value(ScalarValue::of_int(op == BinaryOpKind::FloorDiv ? q : m));
    }
    case BinaryOpKind::Pow:
      return int_power(a, b);
    case BinaryOpKind::BitAnd:
      return bits(a & b);
    case BinaryOpKind::BitOr:
      return bits(a | b);
    case BinaryOpKind::BitXor:
      return bits(a ^ b);
    case BinaryOpKind::Shl:
    case BinaryOpKind::Shr:
      return shift(op, a, b);
  }
  return error("unknown operator");
}

// CPython's float_divmod: the remainder takes the divisor's sign and the quotient is exact-ish.
void float_divmod(double vx, double wx, double& floordiv, double& mod) {
  mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
}

bool is_odd_integer(double w) {
  return std::fmod(std::fabs(w), 2.0) == 1.0;
}

// CPython's float_pow, where a complex result or an overflow is an error.
ScalarResult float_power(double v, double w) {
  auto f = [](double r) { return value(ScalarValue::of_float(r)); };
  if (w == 0) return f(1.0);
  if (std::isnan(v)) return f(v);
  if (std::isnan(w)) return f(v == 1.0 ? 1.0 : w);
  if (std::isinf(w)) {
    double av = std::fabs(v);
    if (av == 1.0) return f(1.0);
    return f((w > 0) == (av > 1.0) ? std::fabs(w) : 0.0);
  }
  if (std::isinf(v)) {
    if (w > 0) return f(is_odd_integer(w) ? v : std::fabs(v));
    return f(is_odd_integer(w) ? std::copysign(0.0, v) : 0.0);
  }
  if (v == 0.0) {
    if (w < 0) return error("0.0 cannot be raised to a negative power");
    return f(is_odd_integer(w) ? v : 0.0);
  }
  bool negate = false;
  if (v < 0) {
    if (w != std::floor(w)) return error("a negative number raised to a fractional power is complex");
    v = -v;
    negate = is_odd_integer(w);
  }
  if (v == 1.0) return f(negate ? -1.0 : 1.0);
  double r = std::pow(v, w);
  if (std::isinf(r)) return error("float power overflows: numerical result out of range");
  return f(negate ? -r : r);
}

ScalarResult float_binary(BinaryOpKind op, double a, double b) {
  auto f = [](double r) { return value(ScalarValue::of_float(r)); };
  double q = 0, m = 0;
  switch (op) {
    case BinaryOpKind::Add:
      return f(a + b);
    case BinaryOpKind::Sub:
      return f(a - b);
    case BinaryOpKind::Mul:
      return f(a * b);
    case BinaryOpKind::Div:
      if (b == 0) return error("float division by zero");
      return f(a / b);
    case BinaryOpKind::FloorDiv:
    case BinaryOpKind::Mod:
      if (b == 0)
        return error(op == BinaryOpKind::Mod ? "float modulo by zero" : "float floor division by zero");
      float_divmod(a, b, q, m);
      return f(op == BinaryOpKind::FloorDiv ? q : m);
    case BinaryOpKind::Pow:
      return float_power(a, b);
    default:
      return error(std::string("unsupported operand type for ") + op_text(op) + ": 'float'");
  }
}

}  // namespace

ScalarResult eval_binary(BinaryOpKind op, const ScalarValue& a, const ScalarValue& b) {
  if (a.is_float() || b.is_float()) return float_binary(op, a.as_double(), b.as_double());
  return int_binary(op, a, b);
}

ScalarResult eval_unary(UnaryOpKind op, const ScalarValue& a) {
  switch (op) {
    case UnaryOpKind::Not:
      return value(ScalarValue::of_bool(!a.truthy()));
    case UnaryOpKind::Pos:
      return value(a.is_float() ? a : ScalarValue::of_int(a.i));
    case UnaryOpKind::Neg:
      if (a.is_float()) return value(ScalarValue::of_float(-a.f));
      if (a.i == LLONG_MIN)
        return error("integer overflow: -(" + std::to_string(a.i) + ") does not fit in 64 bits");
      return value(ScalarValue::of_int(-a.i));
    case UnaryOpKind::Invert:
      if (a.is_float()) return error("bad operand type for unary ~: 'float'");
      return value(ScalarValue::of_int(~a.i));
  }
  return error("unknown operator");
}

bool eval_compare(CompareOpKind op, const ScalarValue& a, const ScalarValue& b) {
  // An int64 and a double are both exact in a long double (64-bit mantissa on x86), as Python's
  // comparison of an int with a float is exact.
  long double x = a.is_float() ? a.f : static_cast<long double>(a.i);
  long double y = b.is_float() ? b.f : static_cast<long double>(b.i);
  bool ints = !a.is_float() && !b.is_float();
  auto cmp = [op](auto p, auto q) {
    switch (op) {
      case CompareOpKind::Eq:
        return p == q;
      case CompareOpKind::Ne:
        return p != q;
      case CompareOpKind::Lt:
        return p < q;
      case CompareOpKind::Le:
        return p <= q;
      case CompareOpKind::Gt:
        return p > q;
      case CompareOpKind::Ge:
        return p >= q;
    }
    return false;
  };
  return ints ? cmp(a.i, b.i) : cmp(x, y);
}

std::optional<ScalarValue> literal_value(const Expr& e) {
  if (!e) return std::nullopt;
  if (auto* i = e->as<IntImm>()) return ScalarValue::of_int(i->value);
  if (auto* f = e->as<FloatImm>()) return ScalarValue::of_float(f->value);
  if (auto* b = e->as<BoolImm>()) return ScalarValue::of_bool(b->value);
  return std::nullopt;
}

std::string scalar_repr(const ScalarValue& v) {
  if (v.kind == Kind::Bool) return v.i ? "True" : "False";
  if (v.kind == Kind::Int) return std::to_string(v.i);
  if (std::isnan(v.f)) return "nan";
  if (std::isinf(v.f)) return v.f > 0 ? "inf" : "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v.f);
  std::string s(buf, end);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

}  // namespace ptodist::ir
