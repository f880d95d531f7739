// The executor of pl.tile.lrelu, pl.tile.prelu and pl.tile.sels: element by element over the source's
// valid region (the device computes nothing outside it; the result holds the source's bytes there).
// Float tiles compute in fp32 and round once, as torch does for FP16 (its opmath type is float).
#include <cstring>

#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {
namespace {

std::pair<long long, long long> valid_extent(const TileValue& t) {
  if (t.valid.size() == 2) return {t.valid[0], t.valid[1]};
  return {t.rows(), t.cols()};
}

// x > 0 ? x : slope * x for one element at byte offset `at`.
void leaky(std::byte* out, const std::byte* x, ir::DType t, double slope) {
  double v = load_element(x, t);
  if (v > 0) {
    std::memcpy(out, x, static_cast<size_t>(ir::dtype_bytes(t)));
  } else if (ir::dtype_is_float(t)) {
    store_element(out, t, static_cast<float>(slope) * static_cast<float>(v));
  } else {
    store_element(out, t, slope * v);
  }
}

// A copy of `src` (shape, dtype, bytes and valid region) as the result to overwrite.
TileValue copy_of(Interp& in, const ir::OpCall& c, const TileValue& src) {
  TileValue out = in.new_tile(c, src.shape, src.dtype, src.memory);
  std::memcpy(out.data, src.data, static_cast<size_t>(out.bytes()));
  out.valid = src.valid;
  return out;
}

// x > 0 ? x : slope * x over the valid region of slot "tile"; `slope` gives element `at`'s slope.
template <typename Slope>
Value leaky_op(Interp& in, const ir::OpCall& c, Slope slope) {
  OperandHolder h;
  const TileValue& src = in.tile_arg(c, "tile", h);
  TileValue out = copy_of(in, c, src);
  auto [rows, cols] = valid_extent(src);
  const long long eb = ir::dtype_bytes(src.dtype);
  for (long long r = 0; r < rows; ++r)
    for (long long j = 0; j < cols; ++j) {
      long long at = (r * src.cols() + j) * eb;
      leaky(out.data + at, src.data + at, src.dtype, slope(at));
    }
  return out;
}

}  // namespace

Value op_Lrelu(Interp& in, const ir::OpCall& c) {
  const double slope = in.double_arg(c, "slope");
  return leaky_op(in, c, [slope](long long) { return slope; });
}

Value op_Prelu(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& slope = in.tile_arg(c, "slope", h);
  return leaky_op(in, c, [&slope](long long at) { return load_element(slope.data + at, slope.dtype); });
}

// src where the mask's bit is set, the scalar elsewhere. The mask is a carrier of 8-, 16- or 32-bit
// integers read as bytes: bit j % 8 of byte j / 8 of a row (pl.cmp writes it so). An integer src takes
// the scalar's low bits, as PyPTO retypes an unsigned src's constant to the same-width signed one.
Value op_Sels(Interp& in, const ir::OpCall& c) {
  OperandHolder hm, hs;
  const TileValue& mask = in.tile_arg(c, "mask", hm);
  const TileValue& src = in.tile_arg(c, "src", hs);
  const double scalar = in.double_arg(c, "scalar");
  auto [rows, cols] = valid_extent(src);
  const long long row_bytes = mask.cols() * ir::dtype_bytes(mask.dtype);
  if (mask.rows() < rows || row_bytes * 8 < cols)
    in.fail(c.span, c.op->spelling + ": mask " + dims_str(mask.shape) + " has no bit for every element of " +
                        dims_str(src.shape));
  TileValue out = copy_of(in, c, src);
  const long long eb = ir::dtype_bytes(src.dtype);
  std::byte fill[8];
  if (ir::dtype_is_float(src.dtype)) {
    store_element(fill, src.dtype, scalar);
  } else {
    // The low bytes of the integer (two's complement, little-endian): 0x8007 into a UINT16 src is
    // PyPTO's INT16 -32761, the same bits.
    const auto v = static_cast<long long>(scalar);
    std::memcpy(fill, &v, static_cast<size_t>(eb));
  }
  const auto* bits = reinterpret_cast<const uint8_t*>(mask.data);
  for (long long r = 0; r < rows; ++r)
    for (long long j = 0; j < cols; ++j)
      if (!(bits[r * row_bytes + j / 8] & (1u << (j % 8))))
        std::memcpy(out.data + (r * src.cols() + j) * eb, fill, static_cast<size_t>(eb));
  return out;
}

}  // namespace ptodist::runtime
