// The executor of the axis reductions (ir/reduce_ops.def) and of pl.row_sum / pl.row_max: a tile
// reduced over its valid region (as the device's TROW*/TCOL* read GetValidRow/GetValidCol), or, for the
// tensor-level forms, a GM tensor into a new one.
#include "exec.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/kernels/reduce.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

kernels::AxisReduce kind_of(ir::ReduceKind k) {
  switch (k) {
    case ir::ReduceKind::kSum:
      return kernels::AxisReduce::Sum;
    case ir::ReduceKind::kMax:
      return kernels::AxisReduce::Max;
    case ir::ReduceKind::kMin:
      return kernels::AxisReduce::Min;
    case ir::ReduceKind::kProd:
      return kernels::AxisReduce::Prod;
    case ir::ReduceKind::kArgMax:
      return kernels::AxisReduce::ArgMax;
    case ir::ReduceKind::kArgMin:
      return kernels::AxisReduce::ArgMin;
  }
  return kernels::AxisReduce::Sum;
}

Value table_reduce(Interp& in, const ir::OpCall& c) {
  const ir::ReduceOpInfo& row = *ir::reduce_op_info(c.op->id);
  bool index = row.kind == ir::ReduceKind::kArgMax || row.kind == ir::ReduceKind::kArgMin;
  OperandHolder h;
  const Value& v = in.operand_arg(c, "input", h);
  ir::DType out = index ? ir::DType::INT32 : in.result_dtype(c, ir::DType::FP32);
  bool per_row = row.axis == ir::ReduceAxis::kRow;
  if (std::holds_alternative<TensorView>(v)) return tensor_reduce(in, c, kind_of(row.kind), per_row, out);
  // A tile col_sum given a tmp tile adds pairwise on the device (TCOLSUM's 4-operand form).
  kernels::AxisReduce kind = kind_of(row.kind);
  if (c.op->id == ir::OpId::ColSum && in.given_arg(c, "tmp_tile")) kind = kernels::AxisReduce::SumPairwise;
  return reduce_tile(in, c, std::get<TileValue>(v), kind, per_row, out);
}

}  // namespace

TileValue reduce_tile(Interp& in, const ir::OpCall& c, const TileValue& a, kernels::AxisReduce kind,
                      bool per_row, ir::DType out_dtype) {
  if (a.shape.size() != 2)
    in.fail(c.span, c.op->spelling + ": the input " + dims_str(a.shape) + " is not 2-D");
  const long long vr = a.valid.empty() ? a.shape[0] : a.valid[0];
  const long long vc = a.valid.empty() ? a.shape[1] : a.valid[1];
  Dims shape = per_row ? Dims{a.shape[0], 1} : Dims{1, a.shape[1]};
  TileValue out = in.new_tile(c, shape, out_dtype, a.memory);
  auto src = kernels::TileView::contiguous(a.data, static_cast<int>(a.shape[0]), static_cast<int>(a.shape[1]),
                                           elem_type(a.dtype))
                 .sub(0, 0, static_cast<int>(vr), static_cast<int>(vc));
  auto dst = kernels::TileView::contiguous(out.data, static_cast<int>(shape[0]), static_cast<int>(shape[1]),
                                           elem_type(out_dtype))
                 .sub(0, 0, per_row ? static_cast<int>(vr) : 1, per_row ? 1 : static_cast<int>(vc));
  kernels::reduce_axis(dst, src, kind, per_row);
  // Only the reduced lines of the valid region hold results (the device leaves the rest as it was).
  if (!a.valid.empty()) out.valid = per_row ? Dims{vr, 1} : Dims{1, vc};
  return out;
}

#define PTODIST_REDUCE(Id, name, sig, tile_sig, axis, kind, tmp, pto) \
  Value op_##Id(Interp& in, const ir::OpCall& c) {                    \
    return table_reduce(in, c);                                       \
  }
#include "ptodist/ir/reduce_ops.def"
#undef PTODIST_REDUCE

}  // namespace ptodist::runtime
