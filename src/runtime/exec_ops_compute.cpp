// Compute ops of the executor: load/store (strided copies), matmul, elementwise, casts, fills,
// reductions, block idx/num and scalar read/write, each through the kernels library.
#include <algorithm>
#include <cstring>

#include "exec.h"
#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/elementwise.h"
#include "ptodist/kernels/matmul.h"
#include "ptodist/kernels/reduce.h"
#include "remote_io.h"
#include "tile_math.h"

namespace ptodist::runtime {
namespace {

kernels::TileView view_of(const TileValue& t) {
  return kernels::TileView::contiguous(t.data, static_cast<int>(t.rows()), static_cast<int>(t.cols()),
                                       elem_type(t.dtype));
}

// The checked result type carries the memory the operand names (the contract put it there), so the
// enum is parsed only for a call without one.
ir::Memory memory_arg(Interp& in, const ir::OpCall& c, std::string_view slot, ir::Memory fallback) {
  if (const DecodedOp* op = in.site_of(c); op && op->tile_result) return op->memory;
  if (c.type && c.type->kind == ir::TypeKind::Tile) return c.type->memory;
  if (const ir::EnumImm* e = enum_arg(c, slot)) {
    if (auto m = ir::memory_from_name(e->value)) return *m;
  }
  return fallback;
}

ir::DType dtype_arg(Interp& in, const ir::OpCall& c, std::string_view slot) {
  const ir::Expr& e = c.arg(slot);
  if (e && e->isa<ir::DTypeImm>()) return e->as<ir::DTypeImm>()->value;
  if (c.type) return c.type->dtype;
  in.fail(c.span, c.op->spelling + ": " + std::string(slot) + " must be a dtype such as pl.FP32");
}

// Checks that [offsets, offsets + shape) lies inside the tensor; returns the region's byte offset.
long long checked_region(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                         const Dims& shape) {
  return region_offset_bytes(in, c, t, offsets, shape);
}

// Check mode: a core's load or store of GM is an access the happens-before tracker checks; of a
// window region (the rank's own window) also a switch point. Local GM needs none: the tracker orders
// accesses by happens-before, not by when they ran, and only windows are shared between ranks.
void check_window_access(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                         const Dims& shape, bool write) {
  check::HappensBefore* hb = in.world().hb();
  if (!hb) return;
  if (t.is_window()) check_switch_point(in);
  check_region(in, *hb, Region{&t, offsets, shape}, t.rank, write, false, c);
}

// Sets `out` to the shape of the op's result type when every dim is a constant, else leaves it:
// TypeNode::static_shape without its heap vector, decoded once for the running op.
void static_dims(Interp& in, const ir::OpCall& c, Dims& out) {
  if (const DecodedOp* op = in.site_of(c)) {
    if (op->static_shape) out = op->shape;
    return;
  }
  if (!c.type) return;
  const ir::TypeNode& type = *c.type;
  Dims dims;
  for (const ir::Expr& d : type.shape) {
    auto v = ir::as_const_int(d);
    if (!v) return;
    dims.push_back(*v);
  }
  out = dims;
}

// A tile's shape aligned to a tensor's rank: leading 1s are added or dropped.
Dims fit_rank(Dims shape, size_t rank) {
  while (shape.size() < rank) shape.push_front(1);
  while (shape.size() > rank && shape.front() == 1) shape.pop_front();
  return shape;
}

void check_same_shape(Interp& in, const ir::OpCall& c, const TileValue& a, const TileValue& b) {
  if (a.numel() != b.numel() || a.cols() != b.cols()) {
    in.fail(c.span, c.op->spelling + ": operand shapes " + dims_str(a.shape) + " and " + dims_str(b.shape) +
                        " differ; both tiles must have the same shape");
  }
}

Value binary_op(Interp& in, const ir::OpCall& c, kernels::BinaryOp op) {
  OperandHolder hl, hr;
  const TileValue& a = in.tile_arg(c, "lhs", hl);
  const TileValue& b = in.tile_arg(c, "rhs", hr);
  check_same_shape(in, c, a, b);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  kernels::binary(op, view_of(out), view_of(a), view_of(b));
  return out;
}

Value scalar_op(Interp& in, const ir::OpCall& c, kernels::ScalarOp op) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "tile", h);
  double s = in.eval_double(c.arg("scalar"));
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  kernels::binary_scalar(op, view_of(out), view_of(a), s);
  return out;
}

// a @ b into acc (added to it when `add`), after checking that the three fit together.
void matmul_into(Interp& in, const ir::OpCall& c, const TileValue& a, const TileValue& b,
                 const TileValue& acc, bool add) {
  if (a.cols() != b.rows()) {
    in.fail(c.span, c.op->spelling + ": inner dims differ: lhs " + dims_str(a.shape) + " and rhs " +
                        dims_str(b.shape));
  }
  if (!kernels::matmul_supported(elem_type(a.dtype), elem_type(b.dtype), elem_type(acc.dtype))) {
    in.fail(c.span, c.op->spelling + ": operands must be FP16, BF16 or FP32 with an FP32 accumulator");
  }
  if (acc.rows() != a.rows() || acc.cols() != b.cols()) {
    in.fail(c.span, c.op->spelling + ": accumulator " + dims_str(acc.shape) + " does not match " +
                        dims_str(Dims{a.rows(), b.cols()}));
  }
  if (add)
    kernels::matmul_acc(view_of(a), view_of(b), view_of(acc));
  else
    kernels::matmul(view_of(a), view_of(b), view_of(acc));
}

}  // namespace

long long region_offset_bytes(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                              const Dims& shape) {
  if (offsets.size() != t.shape.size() || shape.size() != t.shape.size()) {
    in.fail(c.span, c.op->spelling + ": offsets " + dims_str(offsets) + " and shape " + dims_str(shape) +
                        " must each have one entry per dim of '" + t.name + "' " + dims_str(t.shape));
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (offsets[i] < 0 || shape[i] < 0 || offsets[i] + shape[i] > t.shape[i]) {
      in.fail(c.span, c.op->spelling + ": region at offsets " + dims_str(offsets) + " of shape " +
                          dims_str(shape) + " lies outside '" + t.name + "' of shape " + dims_str(t.shape));
    }
  }
  return t.byte_offset(offsets);
}

Value op_Load(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = in.tensor_arg(c, "tensor", h);
  Dims offsets = in.ints_arg(c, "offsets");
  Dims shape = in.ints_arg(c, "shape");
  long long at = checked_region(in, c, t, offsets, shape);
  check_window_access(in, c, t, offsets, shape, false);
  // The result type's static shape may differ from the region's in leading 1s ([1, N] from [N]).
  Dims tile_shape = shape;
  static_dims(in, c, tile_shape);
  TileValue tile = in.new_tile(c, tile_shape, t.dtype, memory_arg(in, c, "target_memory", ir::Memory::Vec));
  copy_region(t.data + at, t.dtype, t.strides, tile.data, tile.dtype, dense_strides(shape), shape);
  return tile;
}

Value op_Store(Interp& in, const ir::OpCall& c) {
  OperandHolder ht, hd;
  const TileValue& tile = in.tile_arg(c, "tile", ht);
  const TensorView& t = in.tensor_arg(c, "output_tensor", hd);
  Dims offsets = in.ints_arg(c, "offsets");
  Dims shape = fit_rank(tile.shape, t.shape.size());
  long long at = checked_region(in, c, t, offsets, shape);
  check_window_access(in, c, t, offsets, shape, true);
  copy_region(tile.data, tile.dtype, dense_strides(shape), t.data + at, t.dtype, t.strides, shape);
  // Only an INT32 window can hold signal cells a core may be blocked on; other writes wake nobody.
  if (t.is_window() && t.dtype == ir::DType::INT32) in.world().wake(t.rank);
  return t;
}

Value op_Matmul(Interp& in, const ir::OpCall& c) {
  OperandHolder ha, hb;
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  ir::DType acc_type = c.type ? c.type->dtype : ir::DType::FP32;
  TileValue acc = in.new_tile(c, {a.rows(), b.cols()}, acc_type, ir::Memory::Acc);
  matmul_into(in, c, a, b, acc, false);
  return acc;
}

// The accumulator is updated in place, as on the device, where the result shares the Acc buffer.
Value op_MatmulAcc(Interp& in, const ir::OpCall& c) {
  OperandHolder hc, ha, hb;
  const TileValue& acc = in.tile_arg(c, "acc", hc);
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  matmul_into(in, c, a, b, acc, true);
  return acc;
}

Value op_Add(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Add);
}
Value op_Sub(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Sub);
}
Value op_Mul(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Mul);
}
Value op_Div(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Div);
}
Value op_Maximum(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Maximum);
}
Value op_Minimum(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Minimum);
}
Value op_Adds(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Add);
}
Value op_Muls(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Mul);
}

Value op_Exp(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "tile", h);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  kernels::exp(view_of(out), view_of(a));
  return out;
}

Value op_Cast(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "tile", h);
  TileValue out = in.new_tile(c, a.shape, dtype_arg(in, c, "target_type"), a.memory);
  kernels::cast(view_of(out), view_of(a));
  return out;
}

Value op_Move(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "tile", h);
  TileValue out = in.new_tile(c, a.shape, a.dtype, memory_arg(in, c, "target_memory", a.memory));
  std::copy_n(a.data, a.bytes(), out.data);
  return out;
}

static Value filled(Interp& in, const ir::OpCall& c, double value, bool fill) {
  Dims shape = in.ints_arg(c, "shape");
  TileValue out =
      in.new_tile(c, shape, dtype_arg(in, c, "dtype"), memory_arg(in, c, "target_memory", ir::Memory::Vec));
  if (fill) kernels::fill(view_of(out), value);
  return out;
}

Value op_Full(Interp& in, const ir::OpCall& c) {
  return filled(in, c, in.eval_double(c.arg("value")), true);
}
Value op_Zeros(Interp& in, const ir::OpCall& c) {
  return filled(in, c, 0, true);
}
// Like the device, a created tile holds whatever bytes its buffer held before.
Value op_CreateTile(Interp& in, const ir::OpCall& c) {
  return filled(in, c, 0, false);
}

static Value reduce(Interp& in, const ir::OpCall& c, bool sum) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "tile", h);
  ir::DType t = c.type ? c.type->dtype : a.dtype;
  TileValue out = in.new_tile(c, {a.rows(), 1}, t, a.memory);
  if (sum)
    kernels::row_sum(view_of(out), view_of(a));
  else
    kernels::row_max(view_of(out), view_of(a));
  return out;
}

Value op_RowSum(Interp& in, const ir::OpCall& c) {
  return reduce(in, c, true);
}
Value op_RowMax(Interp& in, const ir::OpCall& c) {
  return reduce(in, c, false);
}

Value op_GetBlockIdx(Interp& in, const ir::OpCall&) {
  return Scalar::of_int(in.f.block_idx);
}
Value op_GetBlockNum(Interp& in, const ir::OpCall&) {
  return Scalar::of_int(in.f.block_num);
}

Value op_Read(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = in.tensor_arg(c, "tensor", h);
  Dims offsets = in.ints_arg(c, "offsets");
  long long at = checked_region(in, c, t, offsets, Dims(offsets.size(), 1));
  check_window_access(in, c, t, offsets, Dims(offsets.size(), 1), false);
  if (t.dtype == ir::DType::INT64) {  // exactly: a double holds only 53 bits
    long long v = 0;
    std::memcpy(&v, t.data + at, sizeof v);
    return Scalar::of_int(v, t.dtype);
  }
  double v = load_element(t.data + at, t.dtype);
  if (ir::dtype_is_float(t.dtype)) return Scalar::of_float(v, t.dtype);
  return Scalar::of_int(static_cast<long long>(v), t.dtype);
}

Value op_Write(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = in.tensor_arg(c, "tensor", h);
  Dims offsets = in.ints_arg(c, "offsets");
  long long at = checked_region(in, c, t, offsets, Dims(offsets.size(), 1));
  check_window_access(in, c, t, offsets, Dims(offsets.size(), 1), true);
  Value value = in.eval(c.arg("value"));
  const auto* v = std::get_if<Scalar>(&value);
  if (!v) in.fail(c.arg("value")->span, "pl.write: 'value' is not a scalar");
  if (t.dtype == ir::DType::INT64 && !v->is_float())  // exactly: a double holds only 53 bits
    std::memcpy(t.data + at, &v->i, sizeof v->i);
  else
    store_element(t.data + at, t.dtype, v->as_double());
  // Only an INT32 window can hold signal cells a core may be blocked on; other writes wake nobody.
  if (t.is_window() && t.dtype == ir::DType::INT32) in.world().wake(t.rank);
  return NoneValue{};
}

}  // namespace ptodist::runtime
