// The executors of pl.tile.extract and pl.reinterpret_view: new tiles made of another tile's bytes.
// - extract: a window of a 2-D tile copied dense, as the device's TEXTRACT repacks it. The offsets may be
//   run-time values; a window past the source is a located error (TEXTRACT's bounds are hard).
// - reinterpret_view: the bytes as another dtype. The device reads the same buffer through a view
//   (pto.treshape); plan-memory gives the result a buffer of its own here, so the bytes are copied.
#include <algorithm>
#include <cstring>

#include "exec.h"

namespace ptodist::runtime {

Value op_Extract(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& src = in.tile_arg(c, "src", h);
  const long long row = in.int_arg(c, "index_row"), col = in.int_arg(c, "index_col");
  const Dims shape = in.ints_arg(c, "shape");
  if (row < 0 || col < 0 || row + shape[0] > src.shape[0] || col + shape[1] > src.shape[1])
    in.fail(c.span, c.op->spelling + ": the window " + dims_str(shape) + " at (" + std::to_string(row) +
                        ", " + std::to_string(col) + ") is out of bounds of the source " +
                        dims_str(src.shape));
  const DecodedOp& site = in.site_of(c);
  TileValue out = in.new_tile(c, shape, src.dtype, site.tile_result ? site.memory : src.memory);
  const long long eb = ir::dtype_bytes(src.dtype);
  const auto row_bytes = static_cast<size_t>(shape[1] * eb);
  for (long long r = 0; r < shape[0]; ++r)
    std::memcpy(out.data + r * shape[1] * eb, src.data + ((row + r) * src.cols() + col) * eb, row_bytes);
  if (!src.valid.empty())
    out.valid = {std::clamp(src.valid[0] - row, 0LL, shape[0]),
                 std::clamp(src.valid[1] - col, 0LL, shape[1])};
  return out;
}

Value op_ReinterpretView(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& src = in.tile_arg(c, "data", h);
  const auto* to = in.attribute<ir::DTypeImm>(c, "dtype");
  if (!to) in.fail(c.span, c.op->spelling + ": 'dtype' must be a dtype such as pl.INT32");
  const long long from_bytes = ir::dtype_bytes(src.dtype), to_bytes = ir::dtype_bytes(to->value);
  Dims shape = src.shape;
  if (in.given_arg(c, "shape"))
    shape = in.ints_arg(c, "shape");
  else
    shape[shape.size() - 1] = shape[shape.size() - 1] * from_bytes / to_bytes;
  if (shape_numel(shape) * to_bytes != src.bytes())
    in.fail(c.span, c.op->spelling + ": shape " + dims_str(shape) + " does not hold the " +
                        std::to_string(src.bytes()) + " bytes of the tile");
  TileValue out = in.new_tile(c, shape, to->value, src.memory);
  std::memmove(out.data, src.data, static_cast<size_t>(src.bytes()));
  if (!src.valid.empty()) {
    out.valid = src.valid;
    out.valid[out.valid.size() - 1] = out.valid[out.valid.size() - 1] * from_bytes / to_bytes;
  }
  return out;
}

}  // namespace ptodist::runtime
