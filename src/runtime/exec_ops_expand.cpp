// The executor of the broadcast family (ir/expand_ops.def): lhs combined with a per-row or per-column
// vector, on tiles or (the tensor-level forms) GM tensors.
#include <vector>

#include "exec.h"
#include "ptodist/kernels/elementwise.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

kernels::BinaryOp binary_of(ir::ExpandCombine c) {
  switch (c) {
    case ir::ExpandCombine::kAdd:
      return kernels::BinaryOp::Add;
    case ir::ExpandCombine::kMul:
      return kernels::BinaryOp::Mul;
    case ir::ExpandCombine::kDiv:
      return kernels::BinaryOp::Div;
    case ir::ExpandCombine::kMax:
      return kernels::BinaryOp::Maximum;
    case ir::ExpandCombine::kMin:
      return kernels::BinaryOp::Minimum;
    default:  // kSub, and kExpDif's first step
      return kernels::BinaryOp::Sub;
  }
}

kernels::TileView view_of(const TileValue& t) {
  return kernels::TileView::contiguous(t.data, static_cast<int>(t.rows()), static_cast<int>(t.cols()),
                                       elem_type(t.dtype));
}

Value expand_op(Interp& in, const ir::OpCall& c) {
  const ir::ExpandOpInfo& row = *ir::expand_op_info(c.op->id);
  OperandHolder hl, hr;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, "lhs", hl))) return tensor_expand_op(in, c, row);
  const TileValue& a = in.tile_arg(c, "lhs", hl);
  const TileValue& v = in.tile_arg(c, "rhs", hr);
  check_expand_vector(in, c, row, a.shape, v.shape);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  expand_into(row, view_of(out), view_of(a), view_of(v));
  out.valid = a.valid;
  return out;
}

}  // namespace

void check_expand_vector(Interp& in, const ir::OpCall& c, const ir::ExpandOpInfo& row, const Dims& lhs,
                         const Dims& vec) {
  bool per_row = row.axis == ir::ExpandAxis::kRow;
  bool fits = lhs.size() == 2 && vec.size() == 2 &&
              (per_row ? vec[0] == lhs[0] && vec[1] == 1 : vec[0] == 1 && vec[1] == lhs[1]);
  if (!fits)
    in.fail(c.span, c.op->spelling + ": the vector " + dims_str(vec) + " does not fit " + dims_str(lhs) +
                        (per_row ? " (a row vector is [M, 1])" : " (a column vector is [1, N])"));
}

void expand_into(const ir::ExpandOpInfo& row, const kernels::TileView& out, const kernels::TileView& lhs,
                 const kernels::TileView& vec) {
  bool per_row = row.axis == ir::ExpandAxis::kRow;
  if (row.combine == ir::ExpandCombine::kCopy) return kernels::broadcast(out, vec, per_row);
  // The vector is broadcast to lhs's shape first, so every combination is an elementwise kernel.
  std::vector<char> buf(static_cast<size_t>(out.elements()) * kernels::elem_bytes(out.type));
  auto wide = kernels::TileView::contiguous(buf.data(), out.rows, out.cols, out.type);
  kernels::broadcast(wide, vec, per_row);
  kernels::binary(binary_of(row.combine), out, lhs, wide);
  if (row.combine == ir::ExpandCombine::kExpDif) kernels::exp(out, out);
}

#define PTODIST_EXPAND(Id, name, sig, tile_sig, tensor_sig, axis, combine, pto) \
  Value op_##Id(Interp& in, const ir::OpCall& c) {                              \
    return expand_op(in, c);                                                    \
  }
#include "ptodist/ir/expand_ops.def"
#undef PTODIST_EXPAND

}  // namespace ptodist::runtime
