// Elementwise tile kernels: binary ops, ops with a scalar, exp and fill.
#pragma once

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

enum class BinaryOp { Add, Sub, Mul, Div, Maximum, Minimum, Fmod };
enum class ScalarOp { Add, Sub, Mul, Div, Maximum, Minimum, Fmod };
// The unary family of the op table (ir/unary_ops.def names each op's row; the names match).
enum class UnaryOp { Neg, Abs, Sqrt, Rsqrt, Recip, Log, Relu, Sin, Cos, Not };

// Semantics shared by every kernel here (operands have one type and one shape; dst may alias an input
// exactly, i.e. in-place is fine, partial overlap is not):
// - F32 computes in fp32; F16 and BF16 widen to fp32, compute, and round once to nearest even.
// - Maximum/Minimum propagate NaN (as numpy.maximum does).
// - Fmod is C's fmod (torch.fmod): the sign of the dividend, fmod(x, 0) = NaN; on integers x % y with
//   x % 0 == 0 and MIN % -1 == 0 (the op table admits only float dtypes).
// - Integers wrap modulo 2^bits on Add/Sub/Mul; Div truncates toward zero, x / 0 == 0 and
//   MIN / -1 == MIN (no trap). U8 is unsigned.
// - Bool holds 0/1 and the result is normalised to 0/1 (Add acts as or, Mul as and).
void binary(BinaryOp op, const TileView& dst, const TileView& lhs, const TileView& rhs);

// dst = src (op) scalar. For float types the scalar is used as an fp32 value; for integer types it is
// first converted to the element type with the cast rule (truncate toward zero, saturate).
void binary_scalar(ScalarOp op, const TileView& dst, const TileView& src, double scalar);

// dst = exp(src). Float types compute in fp32 with a vectorised polynomial (max error about 2 ulp of
// fp32; overflow gives inf, underflow 0, NaN stays NaN); integer types compute in fp32 and convert
// back with the cast rule.
void exp(const TileView& dst, const TileView& src);

// dst = op(src), dst and src of one type and shape (dst may alias src). Float types compute in fp32 with
// the C library's functions and round once (sqrt, 1/x and log of fp32 are correctly rounded; rsqrt is
// 1/sqrt(x) in double, rounded once); recip(0) = inf, log(0) = -inf, sqrt/log of a negative = NaN.
// sin/cos (radians) are the C library's fp32 sinf/cosf. Integer types: neg/abs wrap (abs(MIN) == MIN, as
// two's complement), relu is max(0, x), not is the bitwise complement; the others compute in fp32 and
// convert back with the cast rule (not on a float is not reached: its contract takes INT16/UINT16).
void unary(UnaryOp op, const TileView& dst, const TileView& src);

// dst[i][j] = vec[i][0] (per_row: vec is [rows, 1]) or vec[0][j] (vec is [1, cols]).
void broadcast(const TileView& dst, const TileView& vec, bool per_row);

// Every element of dst = value, converted to dst's type with the cast rule (cast.h).
void fill(const TileView& dst, double value);

inline void add(const TileView& d, const TileView& a, const TileView& b) {
  binary(BinaryOp::Add, d, a, b);
}
inline void sub(const TileView& d, const TileView& a, const TileView& b) {
  binary(BinaryOp::Sub, d, a, b);
}
inline void mul(const TileView& d, const TileView& a, const TileView& b) {
  binary(BinaryOp::Mul, d, a, b);
}
inline void div(const TileView& d, const TileView& a, const TileView& b) {
  binary(BinaryOp::Div, d, a, b);
}
inline void maximum(const TileView& d, const TileView& a, const TileView& b) {
  binary(BinaryOp::Maximum, d, a, b);
}
inline void minimum(const TileView& d, const TileView& a, const TileView& b) {
  binary(BinaryOp::Minimum, d, a, b);
}
inline void adds(const TileView& d, const TileView& a, double s) {
  binary_scalar(ScalarOp::Add, d, a, s);
}
inline void muls(const TileView& d, const TileView& a, double s) {
  binary_scalar(ScalarOp::Mul, d, a, s);
}
inline void subs(const TileView& d, const TileView& a, double s) {
  binary_scalar(ScalarOp::Sub, d, a, s);
}
inline void divs(const TileView& d, const TileView& a, double s) {
  binary_scalar(ScalarOp::Div, d, a, s);
}
inline void zeros(const TileView& d) {
  fill(d, 0.0);
}

}  // namespace ptodist::kernels
