// The executor of the comparisons (pl.cmp, pl.cmps; pl.cmp of GM tensors gives a 0/1 tensor), the
// selection by mask (pl.sel) and pl.concat.
// A comparison writes PyPTO's packed predicate mask: bit j % 8 of byte j / 8 of a row is element j's
// predicate, as the device's TCMP writes it and TSEL reads it (pto-isa's CPU model of TCMP writes one
// byte per element instead; ptodist follows the device and the type PyPTO deduces).
#include <cstring>

#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

bool compare(double a, double b, long long mode) {
  switch (mode) {
    case 0:
      return a == b;
    case 1:
      return a != b;
    case 2:
      return a < b;
    case 3:
      return a <= b;
    case 4:
      return a > b;
    default:
      return a >= b;
  }
}

// The rows and columns of `t` that an op computes on: its valid region, or all of it.
std::pair<long long, long long> valid_extent(const TileValue& t) {
  if (t.valid.size() == 2) return {t.valid[0], t.valid[1]};
  return {t.rows(), t.cols()};
}

// The mask of lhs against rhs (a tile of the same shape) or, when `rhs` is null, against `scalar`.
Value compare_into_mask(Interp& in, const ir::OpCall& c, const TileValue& lhs, const TileValue* rhs,
                        double scalar) {
  long long mode = in.given_arg(c, "cmp_type") ? in.int_arg(c, "cmp_type") : 0;
  // The packed width the contract gives the type: ceil(cols / 8) bytes, rounded up to 32.
  const long long width = ((lhs.cols() + 7) / 8 + 31) / 32 * 32;
  TileValue mask = in.new_tile(c, {lhs.rows(), width}, ir::DType::UINT8, lhs.memory);
  std::memset(mask.data, 0, static_cast<size_t>(mask.bytes()));
  auto [rows, cols] = valid_extent(lhs);
  const long long eb = ir::dtype_bytes(lhs.dtype);
  auto* bits = reinterpret_cast<uint8_t*>(mask.data);
  for (long long r = 0; r < rows; ++r)
    for (long long j = 0; j < cols; ++j) {
      long long at = r * lhs.cols() + j;
      double a = load_element(lhs.data + at * eb, lhs.dtype);
      double b = rhs ? load_element(rhs->data + at * eb, rhs->dtype) : scalar;
      if (compare(a, b, mode)) bits[r * width + j / 8] |= static_cast<uint8_t>(1u << (j % 8));
    }
  long long valid_bytes = (cols + 7) / 8;
  if (rows != mask.rows() || valid_bytes != width) mask.valid = {rows, valid_bytes};
  return mask;
}

// PyPTO's tensor.cmp: a new tensor of lhs's shape and dtype, 1 where the comparison holds, else 0.
Value compare_tensors(Interp& in, const ir::OpCall& c) {
  long long mode = in.given_arg(c, "cmp_type") ? in.int_arg(c, "cmp_type") : 0;
  OperandHolder hl, hr, hb;
  TensorView a = dense_tensor(in, c, "lhs", hl);
  bool tensor_rhs = std::holds_alternative<TensorView>(in.operand_arg(c, "rhs", hr));
  TensorView b = tensor_rhs ? dense_tensor(in, c, "rhs", hb) : TensorView{};
  double scalar = tensor_rhs ? 0 : in.double_arg(c, "rhs");
  TensorView out = new_owned_tensor(in, c, a.shape, a.dtype);
  const long long eb = ir::dtype_bytes(a.dtype);
  for (long long i = 0; i < a.numel(); ++i) {
    double x = load_element(a.data + i * eb, a.dtype);
    double y = tensor_rhs ? load_element(b.data + i * eb, b.dtype) : scalar;
    store_element(out.data + i * eb, a.dtype, compare(x, y, mode) ? 1.0 : 0.0);
  }
  return out;
}

}  // namespace

Value op_Cmp(Interp& in, const ir::OpCall& c) {
  OperandHolder hl, hr;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, "lhs", hl))) return compare_tensors(in, c);
  const TileValue& lhs = in.tile_arg(c, "lhs", hl);
  const Value& rhs = in.operand_arg(c, "rhs", hr);
  if (const auto* t = std::get_if<TileValue>(&rhs)) return compare_into_mask(in, c, lhs, t, 0);
  return compare_into_mask(in, c, lhs, nullptr, in.double_arg(c, "rhs"));
}

Value op_Cmps(Interp& in, const ir::OpCall& c) {
  OperandHolder hl;
  const TileValue& lhs = in.tile_arg(c, "lhs", hl);
  return compare_into_mask(in, c, lhs, nullptr, in.double_arg(c, "rhs"));
}

// lhs where the mask's bit is set, rhs elsewhere, over lhs's valid region (the rest is rhs's).
Value op_Sel(Interp& in, const ir::OpCall& c) {
  OperandHolder hm, hl, hr;
  const TileValue& mask = in.tile_arg(c, "mask", hm);
  const TileValue& lhs = in.tile_arg(c, "lhs", hl);
  const TileValue& rhs = in.tile_arg(c, "rhs", hr);
  if (mask.rows() != lhs.rows() || mask.cols() * 8 < lhs.cols())
    in.fail(c.span, c.op->spelling + ": mask " + dims_str(mask.shape) + " has no bit for every element of " +
                        dims_str(lhs.shape));
  TileValue out = in.new_tile(c, lhs.shape, lhs.dtype, lhs.memory);
  std::memcpy(out.data, rhs.data, static_cast<size_t>(out.bytes()));
  auto [rows, cols] = valid_extent(lhs);
  const long long eb = ir::dtype_bytes(lhs.dtype);
  const auto* bits = reinterpret_cast<const uint8_t*>(mask.data);
  for (long long r = 0; r < rows; ++r)
    for (long long j = 0; j < cols; ++j)
      if (bits[r * mask.cols() + j / 8] & (1u << (j % 8))) {
        long long at = (r * lhs.cols() + j) * eb;
        std::memcpy(out.data + at, lhs.data + at, static_cast<size_t>(eb));
      }
  out.valid = lhs.valid;
  return out;
}

Value op_Concat(Interp& in, const ir::OpCall& c) {
  OperandHolder ha, hb;
  const TileValue& a = in.tile_arg(c, "src0", ha);
  const TileValue& b = in.tile_arg(c, "src1", hb);
  TileValue out = in.new_tile(c, {a.rows(), a.cols() + b.cols()}, a.dtype, a.memory);
  const long long eb = ir::dtype_bytes(a.dtype);
  const size_t row_a = static_cast<size_t>(a.cols() * eb), row_b = static_cast<size_t>(b.cols() * eb);
  for (long long r = 0; r < a.rows(); ++r) {
    std::memcpy(out.data + r * (row_a + row_b), a.data + r * row_a, row_a);
    std::memcpy(out.data + r * (row_a + row_b) + row_a, b.data + r * row_b, row_b);
  }
  return out;
}

}  // namespace ptodist::runtime
