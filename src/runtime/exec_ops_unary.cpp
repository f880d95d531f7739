// The executor of the elementwise unary family (ir/unary_ops.def): one body for every row, on a tile
// or (where PyPTO has the tensor form) a GM tensor.
#include "exec.h"
#include "ptodist/kernels/elementwise.h"
#include "tile_math.h"

namespace ptodist::runtime {
namespace {

Value unary_op(Interp& in, const ir::OpCall& c, kernels::UnaryOp op, OperandName slot) {
  OperandHolder h;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, slot, h))) return tensor_unary_op(in, c, op, slot);
  const TileValue& a = in.tile_arg(c, slot, h);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  kernels::unary(op,
                 kernels::TileView::contiguous(out.data, static_cast<int>(out.rows()),
                                               static_cast<int>(out.cols()), elem_type(out.dtype)),
                 kernels::TileView::contiguous(a.data, static_cast<int>(a.rows()), static_cast<int>(a.cols()),
                                               elem_type(a.dtype)));
  out.valid = a.valid;
  return out;
}

}  // namespace

// pl.<name>(input, ...) reads slot "input"; the tile-only ops are spelled pl.<name>(tile).
#define PTODIST_UNARY(Id, name, sig, tile_sig, dtypes, pto, in_place) \
  Value op_##Id(Interp& in, const ir::OpCall& c) {                    \
    return unary_op(in, c, kernels::UnaryOp::Id, "input");            \
  }
#define PTODIST_UNARY_TILE(Id, name, sig, tile_sig, dtypes, pto, in_place) \
  Value op_##Id(Interp& in, const ir::OpCall& c) {                         \
    return unary_op(in, c, kernels::UnaryOp::Id, "tile");                  \
  }
#include "ptodist/ir/unary_ops.def"
#undef PTODIST_UNARY_TILE
#undef PTODIST_UNARY

}  // namespace ptodist::runtime
