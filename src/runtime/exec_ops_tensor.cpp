// Ops on GM tensors as values: views (pl.slice, pl.reshape), pl.assemble, pl.tensor.dim,
// pl.create_tensor, the tensor-level forms of the elementwise ops (each result a new tensor the kernel
// owns), and the on-core scalar arrays of pl.array.*.
#include <algorithm>
#include <cstring>
#include <new>

#include "checked_size.h"
#include "exec.h"
#include "ptodist/kernels/cast.h"
#include "ptodist/kernels/elementwise.h"
#include "remote_io.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

// A new dense tensor made by `c`, zero-filled, owned by its storage; its size is checked (a shape
// may come from run-time values) and a failed allocation is a located error, not an abort.
TensorView new_tensor(Interp& in, const ir::OpCall& c, const Dims& shape, ir::DType dtype, std::string name) {
  TensorView t;
  t.dtype = dtype;
  t.shape = shape;
  t.strides = dense_strides(shape);
  t.name = std::move(name);
  size_t bytes = static_cast<size_t>(std::max(1LL, checked_bytes(in, c, shape, dtype, "tensor")));
  std::byte* data = new (std::nothrow) std::byte[bytes]();
  if (!data)
    in.fail(c.span, c.op->spelling + ": cannot allocate the " + std::to_string(bytes) + " bytes of a tensor");
  t.storage = std::shared_ptr<std::byte[]>(data);
  t.data = t.storage.get();
  return t;
}

// `t`'s elements densely packed (a strided view such as a slice is gathered), as a new tensor.
TensorView dense_copy(Interp& in, const ir::OpCall& c, const TensorView& t) {
  report_access(in, c, t, Dims(t.shape.size(), 0), t.shape, false);
  TensorView out = new_tensor(in, c, t.shape, t.dtype, t.name);
  copy_region(t.data, t.dtype, t.strides, out.data, out.dtype, out.strides, t.shape);
  return out;
}

// A dense tensor as the kernels see a tile: rows of its last dim.
kernels::TileView flat(const TensorView& t) {
  long long cols = t.shape.empty() ? 1 : t.shape.back();
  long long rows = cols ? t.numel() / cols : 0;
  return kernels::TileView::contiguous(t.data, static_cast<int>(rows), static_cast<int>(cols),
                                       elem_type(t.dtype));
}

const TensorView& tensor_operand(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& h) {
  return in.tensor_arg(c, slot, h);
}

bool is_contiguous(const TensorView& t) {
  return t.strides == dense_strides(t.shape);
}

// A slice of a tensor with valid_shape (convert-tensor-to-tile leaves one only as a tensor matmul's
// operand): a new dense tensor of the slice's shape holding the valid region, zeros past it, as PyPTO's
// load pads it; only the valid region must lie inside the tensor (pypto-lib's last row block runs past).
Value valid_slice(Interp& in, const ir::OpCall& c, const TensorView& t, const Dims& offset,
                  const Dims& shape) {
  Dims valid = in.ints_arg(c, "valid_shape");
  if (valid.size() != shape.size())
    in.fail(c.span, c.op->spelling + ": valid_shape " + dims_str(valid) + " must have one entry per dim of " +
                        dims_str(shape));
  for (size_t i = 0; i < valid.size(); ++i)
    if (valid[i] < 0 || valid[i] > shape[i])
      in.fail(c.span,
              c.op->spelling + ": valid_shape " + dims_str(valid) + " must lie within " + dims_str(shape));
  long long at = region_offset_bytes(in, c, t, offset, valid);
  TensorView src = t;
  src.data = t.data + at;
  src.shape = valid;
  if (src.is_window()) src.window.offset += at;
  report_access(in, c, src, Dims(valid.size(), 0), valid, false);
  TensorView out = new_tensor(in, c, shape, t.dtype, t.name);
  copy_region(src.data, src.dtype, src.strides, out.data, out.dtype, out.strides, valid);
  out.valid = valid == shape ? Dims{} : valid;
  return out;
}

}  // namespace

Value tensor_binary(Interp& in, const ir::OpCall& c, kernels::BinaryOp op) {
  OperandHolder hl, hr;
  const TensorView& lhs = tensor_operand(in, c, "lhs", hl);
  const TensorView& rhs = tensor_operand(in, c, "rhs", hr);
  // The result keeps the operands' valid region where they agree (PyPTO keeps a matching valid_shape).
  Dims valid = lhs.valid == rhs.valid ? lhs.valid : Dims{};
  TensorView a = dense_copy(in, c, lhs);
  TensorView b = dense_copy(in, c, rhs);
  if (a.shape != b.shape)
    in.fail(c.span, c.op->spelling + ": operand shapes " + dims_str(a.shape) + " and " + dims_str(b.shape) +
                        " differ; both tensors must have the same shape");
  TensorView out = new_tensor(in, c, a.shape, a.dtype, c.op->spelling);
  kernels::binary(op, flat(out), flat(a), flat(b));
  out.valid = valid;
  return out;
}

Value tensor_scalar(Interp& in, const ir::OpCall& c, kernels::ScalarOp op, OperandName tile,
                    OperandName scalar) {
  OperandHolder h;
  const TensorView& operand = tensor_operand(in, c, tile, h);
  TensorView a = dense_copy(in, c, operand);
  TensorView out = new_tensor(in, c, a.shape, a.dtype, c.op->spelling);
  kernels::binary_scalar(op, flat(out), flat(a), in.double_arg(c, scalar));
  out.valid = operand.valid;
  return out;
}

Value tensor_unary(Interp& in, const ir::OpCall& c, bool cast) {
  OperandHolder h;
  const TensorView& operand = tensor_operand(in, c, "input", h);
  TensorView a = dense_copy(in, c, operand);
  ir::DType to = cast ? in.result_dtype(c, a.dtype) : a.dtype;
  TensorView out = new_tensor(in, c, a.shape, to, c.op->spelling);
  if (cast)
    kernels::cast(flat(out), flat(a), round_mode(in, c));
  else
    kernels::exp(flat(out), flat(a));
  out.valid = operand.valid;
  return out;
}

// A unary op of the table on a GM tensor: an integer tensor whose result is FP32 (sqrt, recip, ...)
// is converted first, then computed in place in the new tensor.
Value tensor_unary_op(Interp& in, const ir::OpCall& c, kernels::UnaryOp op, OperandName slot) {
  OperandHolder h;
  const TensorView& operand = tensor_operand(in, c, slot, h);
  TensorView a = dense_copy(in, c, operand);
  ir::DType to = in.result_dtype(c, a.dtype);
  TensorView out = new_tensor(in, c, a.shape, to, c.op->spelling);
  if (to != a.dtype) {
    kernels::cast(flat(out), flat(a));
    kernels::unary(op, flat(out), flat(out));
  } else {
    kernels::unary(op, flat(out), flat(a));
  }
  out.valid = operand.valid;
  return out;
}

// A broadcast op of the table on GM tensors: a new tensor of lhs's shape.
Value tensor_expand_op(Interp& in, const ir::OpCall& c, const ir::ExpandOpInfo& row) {
  OperandHolder hl, hr;
  TensorView a = dense_copy(in, c, tensor_operand(in, c, "lhs", hl));
  TensorView v = dense_copy(in, c, tensor_operand(in, c, "rhs", hr));
  check_expand_vector(in, c, row, a.shape, v.shape);
  TensorView out = new_tensor(in, c, a.shape, a.dtype, c.op->spelling);
  expand_into(row, flat(out), flat(a), flat(v));
  return out;
}

TensorView dense_tensor(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& h) {
  return dense_copy(in, c, tensor_operand(in, c, slot, h));
}

TensorView new_owned_tensor(Interp& in, const ir::OpCall& c, const Dims& shape, ir::DType dtype) {
  return new_tensor(in, c, shape, dtype, c.op->spelling);
}

// An axis reduction of a GM tensor (pl.tensor.row_sum, pl.col_max on a tensor, ...): a new tensor.
Value tensor_reduce(Interp& in, const ir::OpCall& c, kernels::AxisReduce kind, bool per_row,
                    ir::DType out_dtype) {
  OperandHolder h;
  TensorView a = dense_copy(in, c, tensor_operand(in, c, "input", h));
  if (a.shape.size() != 2)
    in.fail(c.span, c.op->spelling + ": the input " + dims_str(a.shape) + " is not 2-D");
  TensorView out =
      new_tensor(in, c, per_row ? Dims{a.shape[0], 1} : Dims{1, a.shape[1]}, out_dtype, c.op->spelling);
  kernels::reduce_axis(flat(out), flat(a), kind, per_row);
  return out;
}

// pl.fillpad on a GM tensor: a dense copy with the pad outside the valid region pl.set_validshape set.
Value tensor_fillpad(Interp& in, const ir::OpCall& c, const std::string& pad) {
  OperandHolder h;
  const TensorView& t = tensor_operand(in, c, "value", h);
  TensorView out = dense_copy(in, c, t);
  out.name = c.op->spelling;
  pad_dense_outside(out.data, out.dtype, out.shape, t.valid, pad);
  return out;
}

// PyPTO's tile.slice: the region `offset`/`shape` of tile `src` copied into a new tile.
Value slice_of_tile(Interp& in, const ir::OpCall& c, const TileValue& src) {
  Dims shape = in.ints_arg(c, "shape");
  Dims offset = in.ints_arg(c, "offset");
  if (shape.size() != 2 || src.shape.size() != 2 || offset.size() != 2)
    in.fail(c.span, c.op->spelling + ": slicing a tile supports 2-D tiles only");
  for (size_t i = 0; i < 2; ++i)
    if (offset[i] < 0 || offset[i] + shape[i] > src.shape[i])
      in.fail(c.span, c.op->spelling + ": region " + dims_str(shape) + " at " + dims_str(offset) +
                          " is out of bounds of the tile " + dims_str(src.shape));
  TileValue out = in.new_tile(c, shape, src.dtype, src.memory);
  long long elem = ir::dtype_bytes(src.dtype);
  for (long long r = 0; r < shape[0]; ++r)
    std::memmove(out.data + r * shape[1] * elem,
                 src.data + ((offset[0] + r) * src.shape[1] + offset[1]) * elem,
                 static_cast<size_t>(shape[1] * elem));
  if (in.given_arg(c, "valid_shape")) out.valid = in.ints_arg(c, "valid_shape");
  if (out.valid == out.shape) out.valid.clear();
  out.window = std::make_shared<const TileWindow>(TileWindow{src, offset});
  return out;
}

void write_back_window(const TileValue& t) {
  for (const TileValue* at = &t; at->window; at = &at->window->parent) {
    const TileValue& parent = at->window->parent;
    const Dims& offset = at->window->offset;
    const long long elem = ir::dtype_bytes(at->dtype);
    for (long long r = 0; r < at->shape[0]; ++r)
      std::memmove(parent.data + ((offset[0] + r) * parent.shape[1] + offset[1]) * elem,
                   at->data + r * at->shape[1] * elem, static_cast<size_t>(at->shape[1] * elem));
  }
}

// A view: the same memory at an offset, with the source's strides. Of a tile, a copy (slice_of_tile).
Value op_Slice(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  if (const auto* tile = std::get_if<TileValue>(&in.operand_arg(c, "input", h)))
    return slice_of_tile(in, c, *tile);
  const TensorView& t = in.tensor_arg(c, "input", h);
  Dims shape = in.ints_arg(c, "shape");
  Dims offset = in.ints_arg(c, "offset");
  if (in.given_arg(c, "valid_shape")) return valid_slice(in, c, t, offset, shape);
  long long at = region_offset_bytes(in, c, t, offset, shape);
  TensorView v = t;
  v.data = t.data + at;
  v.shape = shape;
  v.valid.clear();
  if (v.is_window()) v.window.offset += at;
  return v;
}

// PyPTO's tile.assemble: the valid region of `src` copied into `dst` at `offset`; the result is `dst`'s
// bytes (plan-memory gives the result the target's buffer).
Value assemble_into_tile(Interp& in, const ir::OpCall& c, const TileValue& dst, const TileValue& src) {
  Dims offset = in.ints_arg(c, "offset");
  Dims extent = src.valid.empty() ? src.shape : src.valid;
  if (extent.size() != 2 || dst.shape.size() != 2 || offset.size() != 2)
    in.fail(c.span, c.op->spelling + ": assembling into a tile supports 2-D tiles only");
  for (size_t i = 0; i < 2; ++i)
    if (offset[i] < 0 || offset[i] + extent[i] > dst.shape[i])
      in.fail(c.span, c.op->spelling + ": region " + dims_str(extent) + " at " + dims_str(offset) +
                          " is out of bounds of the target tile " + dims_str(dst.shape));
  long long elem = ir::dtype_bytes(dst.dtype);
  for (long long r = 0; r < extent[0]; ++r)
    std::memmove(dst.data + ((offset[0] + r) * dst.shape[1] + offset[1]) * elem,
                 src.data + r * src.shape[1] * elem, static_cast<size_t>(extent[1] * elem));
  write_back_window(dst);
  return dst;
}

// Writes `source` into `target` at `offset` and returns the target. A tile source is a store.
Value op_Assemble(Interp& in, const ir::OpCall& c) {
  OperandHolder ht, hs;
  if (const auto* dst = std::get_if<TileValue>(&in.operand_arg(c, "target", ht)))
    return assemble_into_tile(in, c, *dst, in.tile_arg(c, "source", hs));
  const TensorView& target = in.tensor_arg(c, "target", ht);
  Dims offset = in.ints_arg(c, "offset");
  const Value& source = in.operand_arg(c, "source", hs);
  if (const auto* tile = std::get_if<TileValue>(&source)) {
    store_tile(in, c, *tile, target, offset);
  } else {
    // Only the valid region of a source narrowed by pl.set_validshape is written (PyPTO's assemble
    // honours the source's valid_shape): the rest of the target keeps what it held.
    TensorView s = in.tensor_arg(c, "source", hs);
    if (!s.valid.empty()) s.shape = s.valid;
    TensorView dense = dense_copy(in, c, s);
    // A source of lower rank has leading dims of 1 in the target (the contract's rule).
    Dims shape = s.shape, strides = dense.strides;
    while (shape.size() < target.shape.size()) {
      shape.push_front(1);
      strides.push_front(0);
    }
    long long at = region_offset_bytes(in, c, target, offset, shape);
    report_access(in, c, target, offset, shape, true);
    copy_region(dense.data, dense.dtype, strides, target.data + at, target.dtype, target.strides, shape);
  }
  if (target.is_window() && target.dtype == ir::DType::INT32) in.world().wake(target.rank);
  return target;
}

Value op_Reshape(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const Value& v = in.operand_arg(c, "input", h);
  Dims shape = in.ints_arg(c, "shape");
  if (const auto* tile = std::get_if<TileValue>(&v)) {
    if (shape_numel(shape) != tile->numel())
      in.fail(c.span, c.op->spelling + ": shape " + dims_str(shape) + " does not hold the " +
                          std::to_string(tile->numel()) + " elements of the tile");
    TileValue out = in.new_tile(c, shape, tile->dtype, tile->memory);
    std::memmove(out.data, tile->data, static_cast<size_t>(tile->bytes()));
    return out;
  }
  const TensorView& t = in.tensor_arg(c, "input", h);
  if (shape_numel(shape) != t.numel())
    in.fail(c.span, c.op->spelling + ": shape " + dims_str(shape) + " does not hold the " +
                        std::to_string(t.numel()) + " elements of '" + t.name + "'");
  if (!is_contiguous(t))
    in.fail(c.span, c.op->spelling + ": '" + t.name +
                        "' is a strided view; only a contiguous tensor can be "
                        "reshaped in place");
  TensorView out = t;
  out.shape = shape;
  out.strides = dense_strides(shape);
  out.valid.clear();
  return out;
}

Value op_TensorDim(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TensorView& t = in.tensor_arg(c, "tensor", h);
  long long axis = in.int_arg(c, "axis");
  long long rank = static_cast<long long>(t.shape.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) in.fail(c.span, c.op->spelling + ": axis out of range");
  return Scalar::of_int(t.shape[static_cast<size_t>(axis)]);
}

Value op_CreateTensor(Interp& in, const ir::OpCall& c) {
  ir::DType dtype = in.result_dtype(c, ir::DType::FP32);
  TensorView t = new_tensor(in, c, in.ints_arg(c, "shape"), dtype, "create_tensor");
  if (in.given_arg(c, "init_value")) kernels::fill(flat(t), in.double_arg(c, "init_value"));
  return t;
}

namespace {

bool is_task_id_array(const ir::OpCall& c) {
  return c.type && c.type->dtype == ir::DType::TASK_ID;
}

// An array of task ids (orchestration) is a tuple of task values, the invalid id a null task.
const TupleValue& task_ids_arg(Interp& in, const ir::OpCall& c) {
  Value v = in.value_of(in.operand_of(c, "array"));
  auto* t = std::get_if<std::shared_ptr<TupleValue>>(&v);
  if (!t || !*t) in.fail(c.span, c.op->spelling + ": 'array' is not an array of task ids here");
  return **t;
}

}  // namespace

// An array is a 1-D INT tile in pooled storage: the C-stack of the core, never placed by plan-memory.
Value op_ArrayCreate(Interp& in, const ir::OpCall& c) {
  long long n = in.int_arg(c, "extent");
  if (n <= 0 || n > (1LL << 20))
    in.fail(c.span, c.op->spelling + ": extent " + std::to_string(n) +
                        " must lie in [1, 1048576] (an on-core array)");
  if (is_task_id_array(c)) {
    auto ids = std::make_shared<TupleValue>();
    ids->elements.assign(static_cast<size_t>(n), TaskValue{});
    return ids;
  }
  ir::DType dtype = in.result_dtype(c, ir::DType::INT32);
  TileValue a = in.new_tile(c, Dims{n}, dtype, ir::Memory::Vec);
  std::fill_n(a.data, a.bytes(), std::byte{0});
  return a;
}

namespace {

long long checked_index(Interp& in, const ir::OpCall& c, long long elements) {
  long long i = in.int_arg(c, "index");
  if (i < 0 || i >= elements)
    in.fail(c.arg("index")->span, c.op->spelling + ": index " + std::to_string(i) +
                                      " is outside the array of " + std::to_string(elements) + " elements");
  return i;
}

}  // namespace

Value op_ArrayGetElement(Interp& in, const ir::OpCall& c) {
  if (c.type && c.type->kind == ir::TypeKind::TaskId) {
    const TupleValue& ids = task_ids_arg(in, c);
    return ids
        .elements[static_cast<size_t>(checked_index(in, c, static_cast<long long>(ids.elements.size())))];
  }
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "array", h);
  long long i = checked_index(in, c, a.numel());
  double v = load_element(a.data + i * ir::dtype_bytes(a.dtype), a.dtype);
  if (a.dtype == ir::DType::BOOL) return Scalar::of_bool(v != 0);
  return Scalar::of_int(static_cast<long long>(v), a.dtype);
}

// Functional update, as PyPTO's: the result is a new array, so a name still bound to the old one keeps
// its elements.
Value op_ArrayUpdateElement(Interp& in, const ir::OpCall& c) {
  if (is_task_id_array(c)) {
    auto ids = std::make_shared<TupleValue>(task_ids_arg(in, c));
    long long i = checked_index(in, c, static_cast<long long>(ids->elements.size()));
    ids->elements[static_cast<size_t>(i)] = in.value_of(in.operand_of(c, "value"));
    return ids;
  }
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, "array", h);
  long long i = checked_index(in, c, a.numel());
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  std::memcpy(out.data, a.data, static_cast<size_t>(a.bytes()));
  store_element(out.data + i * ir::dtype_bytes(a.dtype), a.dtype,
                static_cast<double>(in.int_arg(c, "value")));
  return out;
}

}  // namespace ptodist::runtime
