// One element of a tile: pl.tile.read and pl.tile.write (pto.tgetval / pto.tsetval). The write changes
// the tile's own bytes, as the device's does, and its result is that same tile.
#include <cstring>

#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

// The byte offset of element `indices` in the dense row-major tile; an index outside it is an error.
long long element_at(Interp& in, const ir::OpCall& c, const TileValue& t) {
  Dims idx = in.ints_arg(c, "indices");
  if (idx.size() != t.shape.size())
    in.fail(c.span, c.op->spelling + ": 'indices' has " + std::to_string(idx.size()) +
                        " indices for a tile of " + std::to_string(t.shape.size()) + " dims");
  long long flat = 0;
  for (size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] < 0 || idx[i] >= t.shape[i])
      in.fail(c.arg("indices")->span, c.op->spelling + ": index " + std::to_string(idx[i]) + " of dim " +
                                          std::to_string(i) + " is outside the tile's " +
                                          std::to_string(t.shape[i]));
    flat = flat * t.shape[i] + idx[i];
  }
  return flat * ir::dtype_bytes(t.dtype);
}

}  // namespace

Value op_TileRead(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& t = in.tile_arg(c, "tile", h);
  const std::byte* p = t.data + element_at(in, c, t);
  if (t.dtype == ir::DType::INT64) {  // exactly: a double holds only 53 bits
    long long v = 0;
    std::memcpy(&v, p, sizeof v);
    return Scalar::of_int(v, t.dtype);
  }
  double v = load_element(p, t.dtype);
  if (t.dtype == ir::DType::BOOL) return Scalar::of_bool(v != 0);
  if (ir::dtype_is_float(t.dtype)) return Scalar::of_float(v, t.dtype);
  return Scalar::of_int(static_cast<long long>(v), t.dtype);
}

Value op_TileWrite(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& t = in.tile_arg(c, "tile", h);
  std::byte* p = t.data + element_at(in, c, t);
  OperandHolder hv;
  const auto* v = std::get_if<Scalar>(&in.operand_arg(c, "value", hv));
  if (!v) in.fail(c.arg("value")->span, c.op->spelling + ": 'value' is not a scalar");
  if (t.dtype == ir::DType::INT64 && !v->is_float())
    std::memcpy(p, &v->i, sizeof v->i);
  else
    store_element(p, t.dtype, v->as_double());
  return t;
}

}  // namespace ptodist::runtime
