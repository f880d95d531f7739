// The unary elementwise kernels (neg, abs, sqrt, rsqrt, recip, log, relu, sin, cos, not): float rows through
// fp32 blocks, integer rows element by element.
#include <algorithm>
#include <cmath>

#include "element_access.h"
#include "ptodist/kernels/elementwise.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace {

float apply_f32(UnaryOp op, float x) {
  switch (op) {
    case UnaryOp::Neg:
      return -x;
    case UnaryOp::Abs:
      return std::fabs(x);
    case UnaryOp::Sqrt:
      return std::sqrt(x);
    case UnaryOp::Rsqrt:
      return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    case UnaryOp::Recip:
      return 1.0f / x;
    case UnaryOp::Log:
      return std::log(x);
    case UnaryOp::Relu:
      return std::isnan(x) ? x : std::max(0.0f, x);
    case UnaryOp::Sin:
      return std::sin(x);
    case UnaryOp::Cos:
      return std::cos(x);
    case UnaryOp::Not:
      return x;  // not reached: the contract admits integer tiles only
  }
  return x;
}

void row_float(UnaryOp op, ElemType t, const char* in, char* out, long cols) {
  float buf[detail::kBlock];
  const int eb = elem_bytes(t);
  for (long c0 = 0; c0 < cols; c0 += detail::kBlock) {
    const long n = std::min<long>(detail::kBlock, cols - c0);
    detail::load_f32(t, in + c0 * eb, buf, n);
    for (long i = 0; i < n; ++i) buf[i] = apply_f32(op, buf[i]);
    detail::store_f32(t, buf, out + c0 * eb, n);
  }
}

// Two's complement wrap for neg/abs, as the vector unit's integer negate does.
template <typename T>
T apply_int(UnaryOp op, T x) {
  const auto neg = static_cast<T>(-static_cast<uint64_t>(x));
  switch (op) {
    case UnaryOp::Neg:
      return neg;
    case UnaryOp::Abs:
      return x < 0 ? neg : x;
    case UnaryOp::Relu:
      return x < 0 ? T{0} : x;
    case UnaryOp::Not:
      return static_cast<T>(~x);
    default:
      return x;  // not reached: the float ops go through fp32 (row_int)
  }
}

void row_int(UnaryOp op, ElemType t, const char* in, char* out, long cols) {
  const int eb = elem_bytes(t);
  const bool exact = op == UnaryOp::Neg || op == UnaryOp::Abs || op == UnaryOp::Relu || op == UnaryOp::Not;
  detail::visit_int(t, [&](auto zero) {
    using T = decltype(zero);
    for (long c = 0; c < cols; ++c) {
      T x;
      std::memcpy(&x, in + c * eb, sizeof(T));
      if (exact) {
        T y = apply_int(op, x);
        std::memcpy(out + c * eb, &y, sizeof(T));
      } else {
        detail::store_from_float(t, out + c * eb, apply_f32(op, static_cast<float>(x)));
      }
    }
  });
}

}  // namespace

void unary(UnaryOp op, const TileView& dst, const TileView& src) {
  PTODIST_INTERNAL_ASSERT(dst.type == src.type && dst.rows == src.rows && dst.cols == src.cols,
                          "unary: dst and src differ in type or shape");
  for (int r = 0; r < src.rows; ++r) {
    if (elem_is_float(src.type)) {
      row_float(op, src.type, src.row_ptr(r), dst.row_ptr(r), src.cols);
    } else {
      row_int(op, src.type, src.row_ptr(r), dst.row_ptr(r), src.cols);
    }
  }
}

}  // namespace ptodist::kernels
