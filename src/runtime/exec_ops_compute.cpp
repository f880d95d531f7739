// Compute ops of the executor: load/store (strided copies), matmul, elementwise, casts, fills,
// reductions, block idx/num and scalar read/write, each through the kernels library.
#include <algorithm>
#include <cstring>

#include "exec.h"
#include "ptodist/ir/cast_mode.h"
#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/elementwise.h"
#include "ptodist/kernels/matmul.h"
#include "ptodist/kernels/reduce.h"
#include "ptodist/runtime/shape_only.h"
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
ir::Memory memory_arg(Interp& in, const ir::OpCall& c, OperandName slot, ir::Memory fallback) {
  if (const DecodedOp& op = in.site_of(c); op.tile_result) return op.memory;
  if (const ir::EnumImm* e = enum_arg(in, c, slot)) {
    if (auto m = ir::memory_from_name(e->value)) return *m;
  }
  return fallback;
}

ir::DType dtype_arg(Interp& in, const ir::OpCall& c, OperandName slot) {
  if (const auto* dt = in.attribute<ir::DTypeImm>(c, slot)) return dt->value;
  if (const DecodedOp& op = in.site_of(c); op.typed) return op.dtype;
  in.fail(c.span, c.op->spelling + ": " + std::string(slot.name()) + " must be a dtype such as pl.FP32");
}

// Checks that [offsets, offsets + shape) lies inside the tensor; returns the region's byte offset.
long long checked_region(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                         const Dims& shape) {
  return region_offset_bytes(in, c, t, offsets, shape);
}

// Sets `out` to the shape of the op's result type when every dim is a constant, else leaves it:
// TypeNode::static_shape without its heap vector, decoded once for the running op.
void static_dims(Interp& in, const ir::OpCall& c, Dims& out) {
  if (const DecodedOp& op = in.site_of(c); op.static_shape) out = op.shape;
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

// pto.tpartadd and kin: op(a, b) where b is valid, a elsewhere. Row by row: the b-valid prefix of a row
// through the kernel, the rest copied from a (memmove: out may share a's buffer).
void partial_rows(kernels::BinaryOp op, const TileValue& out, const TileValue& a, const TileValue& b) {
  const Dims& bv = b.valid.empty() ? b.shape : b.valid;
  const long long cols = a.cols(), eb = ir::dtype_bytes(a.dtype);
  const kernels::ElemType t = elem_type(a.dtype);
  for (long long r = 0; r < a.rows(); ++r) {
    bool row_valid = true;  // the row's index in every leading dim is inside b's valid region
    for (long long rest = r, d = static_cast<long long>(a.shape.size()) - 2; d >= 0; --d) {
      row_valid = row_valid && rest % a.shape[d] < bv[d];
      rest /= a.shape[d];
    }
    const int n = static_cast<int>(row_valid ? std::min(cols, bv.back()) : 0);
    std::byte *o = out.data + r * cols * eb, *x = a.data + r * cols * eb, *y = b.data + r * cols * eb;
    if (n > 0)
      kernels::binary(op, kernels::TileView::contiguous(o, 1, n, t),
                      kernels::TileView::contiguous(x, 1, n, t), kernels::TileView::contiguous(y, 1, n, t));
    if (o != x) std::memmove(o + n * eb, x + n * eb, static_cast<size_t>((cols - n) * eb));
  }
}

// `partial`: the part_* ops, which keep a where b is not valid (a GM tensor is valid everywhere).
Value binary_op(Interp& in, const ir::OpCall& c, kernels::BinaryOp op, bool partial = false) {
  OperandHolder hl, hr;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, "lhs", hl))) return tensor_binary(in, c, op);
  const TileValue& a = in.tile_arg(c, "lhs", hl);
  const TileValue& b = in.tile_arg(c, "rhs", hr);
  check_same_shape(in, c, a, b);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  if (partial)
    partial_rows(op, out, a, b);
  else
    kernels::binary(op, view_of(out), view_of(a), view_of(b));
  out.valid = a.valid;
  return out;
}

// The slots are `tile`/`scalar` (adds, ...) or, for maximums/minimums, PyPTO's `lhs`/`rhs`.
Value scalar_op(Interp& in, const ir::OpCall& c, kernels::ScalarOp op, OperandName tile = "tile",
                OperandName scalar = "scalar") {
  OperandHolder h;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, tile, h)))
    return tensor_scalar(in, c, op, tile, scalar);
  const TileValue& a = in.tile_arg(c, tile, h);
  double s = in.double_arg(c, scalar);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  kernels::binary_scalar(op, view_of(out), view_of(a), s);
  out.valid = a.valid;
  return out;
}

// Whether operand `slot` of `c` is a GM tensor (the tensor-level form of the op).
bool tensor_operand_in(Interp& in, const ir::OpCall& c, OperandName slot) {
  OperandHolder h;
  return std::holds_alternative<TensorView>(in.operand_arg(c, slot, h));
}

// a @ b into acc (added to it when `add`), after checking that the three fit together.
void matmul_into(Interp& in, const ir::OpCall& c, const TileValue& a, const TileValue& b,
                 const TileValue& acc, bool add) {
  if (a.cols() != b.rows()) {
    in.fail(c.span, c.op->spelling + ": inner dims differ: lhs " + dims_str(a.shape) + " and rhs " +
                        dims_str(b.shape));
  }
  bool int8 = a.dtype == ir::DType::INT8 && b.dtype == ir::DType::INT8 && acc.dtype == ir::DType::INT32;
  if (!int8 && !kernels::matmul_supported(elem_type(a.dtype), elem_type(b.dtype), elem_type(acc.dtype))) {
    in.fail(c.span,
            c.op->spelling +
                ": operands must be FP16, BF16 or FP32 with an FP32 accumulator, or INT8 with an INT32 one");
  }
  if (acc.rows() != a.rows() || acc.cols() != b.cols()) {
    in.fail(c.span, c.op->spelling + ": accumulator " + dims_str(acc.shape) + " does not match " +
                        dims_str(Dims{a.rows(), b.cols()}));
  }
  if (int8) return int8_matmul(a.data, b.data, acc.data, a.rows(), a.cols(), b.cols(), add);
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

// The region a load reads: `valid_shape` (else `shapes`), cut at the tensor's edge with clamp=True.
Dims load_region(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offsets,
                 const Dims& shape) {
  bool has_valid = in.given_arg(c, "valid_shape");
  Dims region = has_valid ? in.ints_arg(c, "valid_shape") : shape;
  if (region.size() != shape.size())
    in.fail(c.span, c.op->spelling + ": valid_shape " + dims_str(region) +
                        " must have one entry per dim of shapes " + dims_str(shape));
  bool clamped = in.literal_true(c, "clamp");
  for (size_t i = 0; i < region.size(); ++i) {
    if (region[i] < 0 || region[i] > shape[i])
      in.fail(c.span, c.op->spelling + ": valid_shape " + dims_str(region) + " must lie within shapes " +
                          dims_str(shape));
    if (clamped && i < t.shape.size() && offsets.size() == t.shape.size())
      region[i] = std::max(0LL, std::min(region[i], t.shape[i] - offsets[i]));
  }
  return region;
}

// Reads the valid region of the tile; the rest of the tile is zero (PyPTO leaves it undefined, and a
// store never writes it).
Value op_Load(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = in.tensor_arg(c, "tensor", h);
  Dims offsets = in.ints_arg(c, "offsets");
  Dims shape = in.ints_arg(c, "shapes");
  Dims region = load_region(in, c, t, offsets, shape);
  long long at = checked_region(in, c, t, offsets, region);
  report_access(in, c, t, offsets, region, false);
  // The result type's static shape may differ from the region's in leading 1s ([1, N] from [N]).
  Dims tile_shape = shape;
  static_dims(in, c, tile_shape);
  TileValue tile = in.new_tile(c, tile_shape, t.dtype, memory_arg(in, c, "target_memory", ir::Memory::Vec));
  if (region == shape) {
    copy_region(t.data + at, t.dtype, t.strides, tile.data, tile.dtype, dense_strides(shape), shape);
    return tile;
  }
  std::fill_n(tile.data, tile.bytes(), std::byte{0});
  copy_region(t.data + at, t.dtype, t.strides, tile.data, tile.dtype, dense_strides(shape), region);
  tile.valid = fit_rank(region, tile_shape.size());
  return tile;
}

// Adds `shape` elements of the dense `src` (strides `src_strides`) into `dst`, each add atomic.
static void atomic_add_region(const std::byte* src, std::span<const long long> src_strides, std::byte* dst,
                              std::span<const long long> dst_strides, const Dims& shape, ir::DType dt) {
  const long long cols = shape.empty() ? 1 : shape.back(), rows = shape_numel(shape) / std::max(1LL, cols);
  const int bytes = ir::dtype_bytes(dt);
  std::vector<std::byte> row(static_cast<size_t>(cols * bytes));
  for (long long r = 0; r < rows; ++r) {
    long long so = 0, d = 0, rest = r;
    for (size_t i = shape.size() - 1; i-- > 0;) {
      long long idx = rest % shape[i];
      rest /= shape[i];
      so += idx * src_strides[i];
      d += idx * dst_strides[i];
    }
    // The last dim may be strided in the destination: gather a dense row, then add element-wise.
    for (long long k = 0; k < cols; ++k)
      atomic_add_elements(dst + (d + k * dst_strides.back()) * bytes,
                          src + (so + k * src_strides.back()) * bytes, 1, dt);
  }
}

void store_tile(Interp& in, const ir::OpCall& c, const TileValue& tile, const TensorView& t,
                const Dims& offsets) {
  Dims shape = fit_rank(tile.valid.empty() ? tile.shape : tile.valid, t.shape.size());
  Dims tile_strides = dense_strides(fit_rank(tile.shape, t.shape.size()));
  if (tile_strides.size() != shape.size()) tile_strides = dense_strides(shape);
  long long at = checked_region(in, c, t, offsets, shape);
  report_access(in, c, t, offsets, shape, true);
  const ir::EnumImm* atomic = enum_arg(in, c, "atomic");
  if (atomic && atomic->value == "Add")
    atomic_add_region(tile.data, tile_strides, t.data + at, t.strides, shape, t.dtype);
  else
    copy_region(tile.data, tile.dtype, tile_strides, t.data + at, t.dtype, t.strides, shape);
}

Value op_Store(Interp& in, const ir::OpCall& c) {
  OperandHolder ht, hd;
  const TileValue& tile = in.tile_arg(c, "tile", ht);
  const TensorView& t = in.tensor_arg(c, "output_tensor", hd);
  Dims offsets = in.ints_arg(c, "offsets");
  store_tile(in, c, tile, t, offsets);
  // Only an INT32 window can hold signal cells a core may be blocked on; other writes wake nobody.
  if (t.is_window() && t.dtype == ir::DType::INT32) in.world().wake(t.rank);
  return t;
}

Value op_Matmul(Interp& in, const ir::OpCall& c) {
  if (tensor_operand_in(in, c, "lhs")) return tensor_matmul(in, c, false);
  OperandHolder ha, hb;
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  ir::DType acc_type = in.result_dtype(c, ir::DType::FP32);
  TileValue acc = in.new_tile(c, {a.rows(), b.cols()}, acc_type, ir::Memory::Acc);
  matmul_into(in, c, a, b, acc, false);
  return acc;
}

// The accumulator is updated in place, as on the device, where the result shares the Acc buffer.
Value op_MatmulAcc(Interp& in, const ir::OpCall& c) {
  if (tensor_operand_in(in, c, "lhs")) return tensor_matmul(in, c, true);
  OperandHolder hc, ha, hb;
  const TileValue& acc = in.tile_arg(c, "acc", hc);
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  bool overwrite = in.given_arg(c, "init_cond") && in.int_arg(c, "init_cond") != 0;
  matmul_into(in, c, a, b, acc, !overwrite);
  write_back_window(acc);  // a slice of a larger Acc tile accumulates in the parent's bytes
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
Value op_Maximums(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Maximum, "lhs", "rhs");
}
Value op_Minimums(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Minimum, "lhs", "rhs");
}
Value op_Fmod(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Fmod);
}
Value op_Fmods(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Fmod, "lhs", "rhs");
}
Value op_PartAdd(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Add, true);
}
Value op_PartMul(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Mul, true);
}
Value op_PartMax(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Maximum, true);
}
Value op_PartMin(Interp& in, const ir::OpCall& c) {
  return binary_op(in, c, kernels::BinaryOp::Minimum, true);
}
Value op_Subs(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Sub);
}
Value op_Divs(Interp& in, const ir::OpCall& c) {
  return scalar_op(in, c, kernels::ScalarOp::Div);
}

Value op_Exp(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, "input", h))) return tensor_unary(in, c, false);
  const TileValue& a = in.tile_arg(c, "input", h);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  kernels::exp(view_of(out), view_of(a));
  out.valid = a.valid;
  return out;
}

// A scalar converts as PyPTO's scalar cast: to an integer by truncation toward zero, to a float exactly
// where it can.
static Scalar cast_scalar(const Scalar& s, ir::DType to) {
  if (ir::dtype_is_float(to)) return Scalar::of_float(s.as_double(), to);
  if (to == ir::DType::BOOL) return Scalar::of_bool(s.is_float() ? s.f != 0 : s.i != 0);
  long long v = s.as_int();
  switch (to) {  // wrap to the target width, as a C cast of the device does
    case ir::DType::INT32:
      v = static_cast<int32_t>(v);
      break;
    case ir::DType::INT16:
      v = static_cast<int16_t>(v);
      break;
    case ir::DType::INT8:
      v = static_cast<int8_t>(v);
      break;
    case ir::DType::UINT8:
      v = static_cast<uint8_t>(v);
      break;
    case ir::DType::UINT16:
      v = static_cast<uint16_t>(v);
      break;
    case ir::DType::UINT32:
      v = static_cast<uint32_t>(v);
      break;
    default:
      break;
  }
  return Scalar::of_int(v, to);
}

kernels::RoundMode round_mode(const Interp& in, const ir::OpCall& c) {
  const DecodedOperand* mode = in.decoded_operand(c, "mode");
  std::optional<int> code = mode && mode->expr ? ir::cast_mode_code(*mode->expr) : std::nullopt;
  return static_cast<kernels::RoundMode>(code.value_or(ir::kCastModeRound));
}

Value op_Cast(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const Value& v = in.operand_arg(c, "input", h);
  if (const auto* s = std::get_if<Scalar>(&v)) return cast_scalar(*s, dtype_arg(in, c, "target_type"));
  if (std::holds_alternative<TensorView>(v)) return tensor_unary(in, c, true);
  const TileValue& a = in.tile_arg(c, "input", h);
  TileValue out = in.new_tile(c, a.shape, dtype_arg(in, c, "target_type"), a.memory);
  kernels::cast(view_of(out), view_of(a), round_mode(in, c));
  out.valid = a.valid;
  return out;
}

Value op_Move(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "tile", h);
  TileValue out = in.new_tile(c, a.shape, a.dtype, memory_arg(in, c, "target_memory", a.memory));
  if (!skips_copy_of(a.dtype)) std::copy_n(a.data, a.bytes(), out.data);
  out.valid = a.valid;
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
  return filled(in, c, in.double_arg(c, "value"), true);
}
Value op_Zeros(Interp& in, const ir::OpCall& c) {
  return filled(in, c, 0, true);
}
// Like the device, a created tile holds whatever bytes its buffer held before.
Value op_CreateTile(Interp& in, const ir::OpCall& c) {
  return filled(in, c, 0, false);
}

// pl.row_sum / pl.row_max: the fp32 SIMD kernels on a wholly valid tile; a partially valid one (only
// its valid region is reduced) and the tensor-level form go through the axis reductions.
static Value reduce(Interp& in, const ir::OpCall& c, bool sum) {
  OperandHolder h;
  const Value& v = in.operand_arg(c, "input", h);
  auto kind = sum ? kernels::AxisReduce::Sum : kernels::AxisReduce::Max;
  if (std::holds_alternative<TensorView>(v))
    return tensor_reduce(in, c, kind, true, in.result_dtype(c, ir::DType::FP32));
  const TileValue& a = std::get<TileValue>(v);
  ir::DType t = in.result_dtype(c, a.dtype);
  if (!a.valid.empty()) return reduce_tile(in, c, a, kind, true, t);
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

Value op_ScalarMin(Interp& in, const ir::OpCall& c) {
  Scalar a = std::get<Scalar>(in.value_of(in.operand_of(c, "lhs")));
  Scalar b = std::get<Scalar>(in.value_of(in.operand_of(c, "rhs")));
  ir::DType t = in.result_dtype(c, a.dtype);
  if (ir::dtype_is_float(t)) return Scalar::of_float(std::min(a.as_double(), b.as_double()), t);
  return Scalar::of_int(std::min(a.as_int(), b.as_int()), t);
}

Value op_ScalarMax(Interp& in, const ir::OpCall& c) {
  Scalar a = std::get<Scalar>(in.value_of(in.operand_of(c, "lhs")));
  Scalar b = std::get<Scalar>(in.value_of(in.operand_of(c, "rhs")));
  ir::DType t = in.result_dtype(c, a.dtype);
  if (ir::dtype_is_float(t)) return Scalar::of_float(std::max(a.as_double(), b.as_double()), t);
  return Scalar::of_int(std::max(a.as_int(), b.as_int()), t);
}

Value op_GetBlockIdx(Interp& in, const ir::OpCall&) {
  return Scalar::of_int(in.f.block_idx);
}
Value op_GetBlockNum(Interp& in, const ir::OpCall&) {
  return Scalar::of_int(in.f.block_num);
}

Value op_Read(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = in.tensor_arg(c, "src", h);
  Dims offsets = in.ints_arg(c, "offset");
  long long at = checked_region(in, c, t, offsets, Dims(offsets.size(), 1));
  report_access(in, c, t, offsets, Dims(offsets.size(), 1), false);
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
  const TensorView& t = in.tensor_arg(c, "dst", h);
  Dims offsets = in.ints_arg(c, "offset");
  long long at = checked_region(in, c, t, offsets, Dims(offsets.size(), 1));
  report_access(in, c, t, offsets, Dims(offsets.size(), 1), true);
  OperandHolder hv;
  const Value& value = in.operand_arg(c, "value", hv);
  const auto* v = std::get_if<Scalar>(&value);
  if (!v) in.fail(c.arg("value")->span, "pl.write: 'value' is not a scalar");
  if (t.dtype == ir::DType::INT64 && !v->is_float())  // exactly: a double holds only 53 bits
    std::memcpy(t.data + at, &v->i, sizeof v->i);
  else
    store_element(t.data + at, t.dtype, v->as_double());
  // Only an INT32 window can hold signal cells a core may be blocked on; other writes wake nobody.
  if (t.is_window() && t.dtype == ir::DType::INT32) in.world().wake(t.rank);
  return t;  // the destination, as PyPTO's tensor.write returns it
}

}  // namespace ptodist::runtime
