// Row and column reductions element by element (sum, max, min, prod, argmax, argmin): the axis
// reductions beyond row_sum/row_max, whose tiles are small enough that a scalar loop serves.
#include <cmath>
#include <limits>
#include <vector>

#include "element_access.h"
#include "ptodist/kernels/reduce.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace {

float load_float(ElemType t, const char* p) {
  float v = 0;
  detail::load_f32(t, p, &v, 1);
  return v;
}

// Folds `n` elements starting at `p`, `step` bytes apart, in the accumulator type Acc.
template <typename Acc, typename Load>
void fold(const char* p, long n, long step, AxisReduce kind, Load load, Acc& acc, long& index) {
  index = 0;
  acc = load(p);
  for (long i = 1; i < n; ++i) {
    Acc v = load(p + i * step);
    switch (kind) {
      case AxisReduce::Sum:
      case AxisReduce::SumPairwise:
        acc = static_cast<Acc>(acc + v);
        break;
      case AxisReduce::Prod:
        acc = static_cast<Acc>(acc * v);
        break;
      case AxisReduce::Max:
      case AxisReduce::ArgMax:
        // NaN wins and stays (the first NaN), as numpy's max/argmax.
        if (!(acc != acc) && (v != v || v > acc)) acc = v, index = i;
        break;
      case AxisReduce::Min:
      case AxisReduce::ArgMin:
        if (!(acc != acc) && (v != v || v < acc)) acc = v, index = i;
        break;
    }
  }
}

// The reduction of one line of `n` elements into `out` (an element of dst).
void reduce_line(const TileView& dst, char* out, const char* p, long n, long step, ElemType t,
                 AxisReduce kind) {
  long index = 0;
  bool arg = kind == AxisReduce::ArgMax || kind == AxisReduce::ArgMin;
  if (elem_is_float(t)) {
    float acc = 0;
    fold<float>(
        p, n, step, kind, [t](const char* q) { return load_float(t, q); }, acc, index);
    if (!arg) return detail::store_from_float(dst.type, out, acc);
  } else {
    int64_t acc = 0;
    auto load = [t](const char* q) { return detail::load_int(t, q); };
    if (kind == AxisReduce::Sum || kind == AxisReduce::Prod) {
      // Wrapping int64 arithmetic: unsigned, so overflow is defined.
      uint64_t a = static_cast<uint64_t>(load(p));
      for (long i = 1; i < n; ++i) {
        uint64_t v = static_cast<uint64_t>(load(p + i * step));
        a = kind == AxisReduce::Sum ? a + v : a * v;
      }
      return detail::store_from_int(dst.type, out, static_cast<int64_t>(a));
    }
    fold<int64_t>(p, n, step, kind, load, acc, index);
    if (!arg) return detail::store_from_int(dst.type, out, acc);
  }
  detail::store_from_int(dst.type, out, index);
}

// x rounded to the float type t (F32: unchanged), as a vector add in t leaves it.
float round_to(ElemType t, float x) {
  if (t == ElemType::F32) return x;
  char bytes[4];
  detail::store_f32(t, &x, bytes, 1);
  float back = 0;
  detail::load_f32(t, bytes, &back, 1);
  return back;
}

// A column sum as pto-isa's TCOLSUM computes it on the device: vector adds of whole rows in the tile's
// own float type, each add rounded to it (an FP16 sum of 32 rows rounds 31 times, not once at the
// end). In order, row after row (the form without a tmp tile), or pairwise: rows 2i and 2i+1 added into
// row i, level after level, an odd last row folded into row 0 (the form with a tmp tile).
void col_sum_in_type(const TileView& dst, const TileView& src, bool pairwise) {
  const int eb = elem_bytes(src.type), db = elem_bytes(dst.type);
  std::vector<float> line(static_cast<size_t>(src.rows));
  for (int c = 0; c < src.cols; ++c) {
    for (int r = 0; r < src.rows; ++r)
      line[static_cast<size_t>(r)] = load_float(src.type, src.row_ptr(r) + static_cast<long>(c) * eb);
    float sum = line[0];
    if (!pairwise) {
      for (size_t r = 1; r < line.size(); ++r) sum = round_to(src.type, sum + line[r]);
    } else {
      for (size_t n = line.size(); n > 1; n /= 2) {
        const size_t half = n / 2;
        for (size_t i = 0; i < half; ++i) line[i] = round_to(src.type, line[2 * i] + line[2 * i + 1]);
        if (n % 2 == 1) line[0] = round_to(src.type, line[0] + line[n - 1]);
      }
      sum = line[0];
    }
    detail::store_from_float(dst.type, dst.row_ptr(0) + static_cast<long>(c) * db, sum);
  }
}

}  // namespace

void reduce_axis(const TileView& dst, const TileView& src, AxisReduce kind, bool per_row) {
  PTODIST_INTERNAL_ASSERT(
      per_row ? dst.rows == src.rows && dst.cols == 1 : dst.rows == 1 && dst.cols == src.cols,
      "reduce_axis: dst does not fit src");
  if (src.rows == 0 || src.cols == 0) return;
  const int eb = elem_bytes(src.type), db = elem_bytes(dst.type);
  const long row_step = src.row_stride * eb;
  const bool pairwise = kind == AxisReduce::SumPairwise;
  if (pairwise) kind = AxisReduce::Sum;
  if (!per_row && kind == AxisReduce::Sum && elem_is_float(src.type))
    return col_sum_in_type(dst, src, pairwise);
  if (per_row) {
    for (int r = 0; r < src.rows; ++r)
      reduce_line(dst, dst.row_ptr(r), src.row_ptr(r), src.cols, eb, src.type, kind);
  } else {
    for (int c = 0; c < src.cols; ++c)
      reduce_line(dst, dst.row_ptr(0) + static_cast<long>(c) * db, src.row_ptr(0) + static_cast<long>(c) * eb,
                  src.rows, row_step, src.type, kind);
  }
}

}  // namespace ptodist::kernels
