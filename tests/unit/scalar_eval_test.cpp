// The shared scalar evaluator against Python's results (each expected value is what CPython 3.11
// prints for the expression in the comment).
#include "ptodist/ir/scalar_eval.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>

namespace ptodist::ir {
namespace {

using B = BinaryOpKind;
const ScalarValue I(long long v) {
  return ScalarValue::of_int(v);
}
const ScalarValue F(double v) {
  return ScalarValue::of_float(v);
}
const ScalarValue T = ScalarValue::of_bool(true);

std::string eval(B op, ScalarValue a, ScalarValue b) {
  ScalarResult r = eval_binary(op, a, b);
  return r.ok() ? scalar_repr(r.value) : "error: " + r.error;
}

TEST(ScalarEval, IntegerDivisionFloors) {
  EXPECT_EQ(eval(B::FloorDiv, I(-7), I(2)), "-4");    // -7 // 2
  EXPECT_EQ(eval(B::Mod, I(-7), I(2)), "1");          // -7 % 2
  EXPECT_EQ(eval(B::Mod, I(7), I(-2)), "-1");         // 7 % -2
  EXPECT_EQ(eval(B::Div, I(7), I(2)), "3.5");         // 7 / 2
  EXPECT_EQ(eval(B::Mod, I(LLONG_MIN), I(-1)), "0");  // -2**63 % -1
  EXPECT_EQ(eval(B::FloorDiv, I(LLONG_MIN), I(-1)),
            "error: integer overflow: -9223372036854775808 // -1 does not fit in 64 bits");
  EXPECT_EQ(eval(B::FloorDiv, I(1), I(0)), "error: integer division by zero");
  EXPECT_EQ(eval(B::Mod, I(1), I(0)), "error: integer modulo by zero");
}

TEST(ScalarEval, PowersAreBounded) {
  EXPECT_EQ(eval(B::Pow, I(2), I(-1)), "0.5");  // 2 ** -1
  EXPECT_EQ(eval(B::Pow, I(0), I(-1)), "error: 0.0 cannot be raised to a negative power");
  EXPECT_EQ(eval(B::Pow, I(1), I(LLONG_MAX)), "1");
  EXPECT_EQ(eval(B::Pow, I(-1), I(LLONG_MAX)), "-1");
  EXPECT_EQ(eval(B::Pow, I(2), I(62)), "4611686018427387904");
  EXPECT_EQ(eval(B::Pow, I(-2), I(63)), "-9223372036854775808");
  EXPECT_EQ(eval(B::Pow, I(2), I(63)), "error: integer overflow: 2 ** 63 does not fit in 64 bits");
  EXPECT_EQ(eval(B::Pow, I(2), I(LLONG_MAX)),
            "error: integer overflow: 2 ** 9223372036854775807 does not fit in 64 bits");
  EXPECT_EQ(eval(B::Pow, F(-8), F(0.5)), "error: a negative number raised to a fractional power is complex");
  EXPECT_EQ(eval(B::Pow, F(-2), F(3)), "-8.0");
  EXPECT_EQ(eval(B::Pow, F(10), F(400)), "error: float power overflows: numerical result out of range");
}

TEST(ScalarEval, ShiftsPastTheWidth) {
  EXPECT_EQ(eval(B::Shl, I(1), I(62)), "4611686018427387904");
  EXPECT_EQ(eval(B::Shl, I(-1), I(63)), "-9223372036854775808");
  EXPECT_EQ(eval(B::Shl, I(1), I(63)), "error: integer overflow: 1 << 63 does not fit in 64 bits");
  EXPECT_EQ(eval(B::Shl, I(0), I(1000)), "0");
  EXPECT_EQ(eval(B::Shr, I(-5), I(100)), "-1");
  EXPECT_EQ(eval(B::Shr, I(5), I(100)), "0");
  EXPECT_EQ(eval(B::Shl, I(1), I(-1)), "error: negative shift count");
}

TEST(ScalarEval, FloatsFollowCPython) {
  EXPECT_EQ(eval(B::FloorDiv, F(-7.5), I(2)), "-4.0");  // -7.5 // 2
  EXPECT_EQ(eval(B::Mod, F(-7.5), I(2)), "0.5");        // -7.5 % 2
  EXPECT_EQ(eval(B::Mod, F(7.5), I(-2)), "-0.5");       // 7.5 % -2
  EXPECT_EQ(eval(B::Mod, F(-0.0), I(2)), "0.0");        // -0.0 % 2
  EXPECT_EQ(eval(B::Div, F(1), F(0)), "error: float division by zero");
  EXPECT_EQ(eval(B::Mul, F(1e308), F(10)), "inf");  // overflow to inf is not an error in Python
  EXPECT_EQ(eval(B::BitAnd, F(1), I(1)), "error: unsupported operand type for &: 'float'");
}

TEST(ScalarEval, BoolsAreIntsExceptUnderBitOps) {
  EXPECT_EQ(eval(B::Add, T, T), "2");  // True + True
  EXPECT_EQ(eval(B::BitAnd, T, ScalarValue::of_bool(false)), "False");
  EXPECT_EQ(eval(B::BitXor, T, I(3)), "2");
  EXPECT_EQ(scalar_repr(eval_unary(UnaryOpKind::Invert, T).value), "-2");  // ~True
  EXPECT_EQ(scalar_repr(eval_unary(UnaryOpKind::Neg, T).value), "-1");
  EXPECT_FALSE(eval_unary(UnaryOpKind::Neg, I(LLONG_MIN)).ok());
  EXPECT_FALSE(eval_unary(UnaryOpKind::Invert, F(1.5)).ok());
}

TEST(ScalarEval, MixedComparisonsAreExact) {
  // 2**53 + 1 is not a double: Python compares it exactly with 2.0**53.
  EXPECT_FALSE(eval_compare(CompareOpKind::Eq, I((1LL << 53) + 1), F(9007199254740992.0)));
  EXPECT_TRUE(eval_compare(CompareOpKind::Gt, I((1LL << 53) + 1), F(9007199254740992.0)));
  EXPECT_TRUE(eval_compare(CompareOpKind::Ne, F(NAN), F(NAN)));
  EXPECT_FALSE(eval_compare(CompareOpKind::Eq, F(NAN), F(NAN)));
  EXPECT_TRUE(eval_compare(CompareOpKind::Eq, T, I(1)));
}

}  // namespace
}  // namespace ptodist::ir
