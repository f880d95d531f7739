// The executor of the valid-region ops: pl.set_validshape (the operand's own bytes with a narrower valid
// region), pl.fillpad / pl.tile.fillpad_inplace (the pad value written outside the valid region) and
// pl.fillpad_expand (the valid region copied into a larger result, padded), on tiles and, for the
// tensor-level forms, GM tensors; and of pl.arange and pl.tri, which fill a new tile.
#include <cstring>
#include <limits>

#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

// The bytes of one element of `t` for `pad` (pl.PadValue member): zero, or the type's largest
// (smallest) value, +inf (-inf) for the float types, as pto-isa's TFILLPAD picks its pad (its CPU
// model's GetPadValue: infinity where the type has one, else numeric_limits max/min).
template <typename T>
void put(std::byte* out, T v) {
  std::memcpy(out, &v, sizeof v);
}

template <typename T>
void put_limit(std::byte* out, bool max) {
  put<T>(out, max ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min());
}

void pad_element(std::byte* out, ir::DType t, const std::string& pad) {
  std::memset(out, 0, static_cast<size_t>(ir::dtype_bytes(t)));
  if (pad == "zero") return;
  bool max = pad == "max";
  switch (t) {
    case ir::DType::FP32:
      return put<float>(
          out, max ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
    case ir::DType::FP16:
      return put<uint16_t>(out, max ? 0x7C00 : 0xFC00);
    case ir::DType::BF16:
      return put<uint16_t>(out, max ? 0x7F80 : 0xFF80);
    case ir::DType::INT32:
      return put_limit<int32_t>(out, max);
    case ir::DType::INT16:
      return put_limit<int16_t>(out, max);
    case ir::DType::INT8:
      return put_limit<int8_t>(out, max);
    case ir::DType::UINT8:
      return put_limit<uint8_t>(out, max);
    case ir::DType::UINT16:
      return put_limit<uint16_t>(out, max);
    case ir::DType::UINT32:
      return put_limit<uint32_t>(out, max);
    case ir::DType::INT64:
    case ir::DType::INDEX:
      return put_limit<int64_t>(out, max);
    case ir::DType::BOOL:
      return put<uint8_t>(out, max ? 1 : 0);
  }
}

// The pad of the call (`pad_value`, zero when omitted or the literal 0).
std::string pad_of(const Interp& in, const ir::OpCall& c) {
  const ir::EnumImm* e = enum_arg(in, c, "pad_value");
  return e ? e->value : "zero";
}

// Writes the pad over every element of the dense `shape` buffer `data` outside `valid` (one extent per
// dim; empty: all valid, nothing to write).
void pad_outside(std::byte* data, ir::DType t, const Dims& shape, const Dims& valid, const std::string& pad) {
  if (valid.empty() || valid == shape) return;
  std::byte one[8];
  pad_element(one, t, pad);
  const long long eb = ir::dtype_bytes(t), n = shape_numel(shape);
  Dims index(shape.size(), 0);
  for (long long i = 0; i < n; ++i) {
    bool inside = true;
    for (size_t d = 0; d < shape.size() && inside; ++d) inside = index[d] < valid[d];
    if (!inside) std::memcpy(data + i * eb, one, static_cast<size_t>(eb));
    for (size_t d = shape.size(); d-- > 0;) {  // the next row-major index
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

// valid_rows / valid_cols of a set_validshape call, checked against the operand's 2-D shape.
Dims valid_extents(Interp& in, const ir::OpCall& c, const Dims& shape) {
  Dims valid{in.int_arg(c, "valid_rows"), in.int_arg(c, "valid_cols")};
  for (size_t d = 0; d < 2; ++d)
    if (shape.size() != 2 || valid[d] < 0 || valid[d] > shape[d])
      in.fail(c.span, c.op->spelling + ": the valid region " + dims_str(valid) + " does not fit the shape " +
                          dims_str(shape));
  return valid;
}

Value fillpad_tile(Interp& in, const ir::OpCall& c, OperandName slot) {
  OperandHolder h;
  const TileValue& a = in.tile_arg(c, slot, h);
  TileValue out = in.new_tile(c, a.shape, a.dtype, a.memory);
  if (out.data != a.data) std::memmove(out.data, a.data, static_cast<size_t>(a.bytes()));
  pad_outside(out.data, out.dtype, out.shape, a.valid, pad_of(in, c));
  out.valid.clear();
  return out;
}

// `shape` elements at `out`: the elements of the dense `from` buffer (its shape `from_shape`) inside
// `valid` at the same index, the pad everywhere else.
void expand_padded(const std::byte* from, const Dims& from_shape, const Dims& valid, ir::DType t,
                   const Dims& shape, std::byte* out, const std::string& pad) {
  std::byte one[8];
  pad_element(one, t, pad);
  const long long eb = ir::dtype_bytes(t), n = shape_numel(shape);
  Dims index(shape.size(), 0);
  for (long long i = 0; i < n; ++i) {
    bool inside = true;
    long long off = 0;
    for (size_t d = 0; d < shape.size() && inside; ++d) {
      inside = index[d] < (valid.empty() ? from_shape[d] : valid[d]);
      off = off * from_shape[d] + index[d];
    }
    std::memcpy(out + i * eb, inside ? from + off * eb : one, static_cast<size_t>(eb));
    for (size_t d = shape.size(); d-- > 0;) {  // the next row-major index
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

Value op_SetValidShape(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const Value& v = in.operand_arg(c, "input", h);
  if (const auto* tile = std::get_if<TileValue>(&v)) {
    TileValue out = *tile;  // the same bytes: plan-memory gives the result the operand's buffer
    out.valid = valid_extents(in, c, tile->shape);
    if (out.valid == out.shape) out.valid.clear();
    return out;
  }
  TensorView out = in.tensor_arg(c, "input", h);
  out.valid = valid_extents(in, c, out.shape);
  if (out.valid == out.shape) out.valid.clear();
  return out;
}

Value op_FillPad(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  if (std::holds_alternative<TensorView>(in.operand_arg(c, "value", h)))
    return tensor_fillpad(in, c, pad_of(in, c));
  return fillpad_tile(in, c, "value");
}

Value op_FillPadInplace(Interp& in, const ir::OpCall& c) {
  return fillpad_tile(in, c, "tile");
}

// A new, larger tile or tensor: the operand's valid region at the top left, the pad around it (pto-isa's
// TFILLPAD_EXPAND); all of the result is valid.
Value op_FillPadExpand(Interp& in, const ir::OpCall& c) {
  OperandHolder h, dense_holder;
  Dims shape = in.ints_arg(c, "shape");
  const Value& operand = in.operand_arg(c, "value", h);
  if (const auto* tile = std::get_if<TileValue>(&operand)) {
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape.size() != tile->shape.size() || shape[d] < tile->shape[d])
        in.fail(c.span, c.op->spelling + ": the shape " + dims_str(shape) + " is smaller than the tile's " +
                            dims_str(tile->shape));
    TileValue out = in.new_tile(c, shape, tile->dtype, tile->memory);
    expand_padded(tile->data, tile->shape, tile->valid, tile->dtype, shape, out.data, pad_of(in, c));
    return out;
  }
  const auto* view = std::get_if<TensorView>(&operand);
  const Dims valid = view ? view->valid : Dims{};
  TensorView src = dense_tensor(in, c, "value", dense_holder);
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape.size() != src.shape.size() || shape[d] < src.shape[d])
      in.fail(c.span, c.op->spelling + ": the shape " + dims_str(shape) + " is smaller than the tensor's " +
                          dims_str(src.shape));
  TensorView out = new_owned_tensor(in, c, shape, src.dtype);
  out.name = c.op->spelling;
  expand_padded(src.data, src.shape, valid, src.dtype, shape, out.data, pad_of(in, c));
  return out;
}

// pl.tri (pto.ttri): 1 where column j <= row i + diagonal (j >= i + diagonal when upper), 0 elsewhere,
// over the valid region only; the rest keeps what the tile's bytes held, as on the device.
Value op_Tri(Interp& in, const ir::OpCall& c) {
  Dims shape = in.ints_arg(c, "shape");
  Dims valid = in.given_arg(c, "valid_shape") ? in.ints_arg(c, "valid_shape") : shape;
  if (shape.size() != 2 || valid.size() != 2 || valid[0] > shape[0] || valid[1] > shape[1])
    in.fail(c.span, c.op->spelling + ": the valid region " + dims_str(valid) + " does not fit the shape " +
                        dims_str(shape));
  const ir::DType t = in.result_dtype(c, ir::DType::INT32);
  const long long diagonal = in.int_arg(c, "diagonal");
  const bool upper = in.literal_true(c, "upper");
  TileValue out = in.new_tile(c, shape, t, ir::Memory::Vec);
  const long long eb = ir::dtype_bytes(t);
  for (long long i = 0; i < valid[0]; ++i)
    for (long long j = 0; j < valid[1]; ++j) {
      const bool one = upper ? j >= i + diagonal : j <= i + diagonal;
      store_element(out.data + (i * shape[1] + j) * eb, t, one ? 1.0 : 0.0);
    }
  if (valid != shape) out.valid = valid;
  return out;
}

// pl.arange (PyPTO's ci, pto.tci): dst[0, k] = start + k (start - k when descending) along the one row
// the contract allows, wrapping in the dtype as the device's integer arithmetic does.
Value op_Arange(Interp& in, const ir::OpCall& c) {
  Dims shape = in.ints_arg(c, "shape");
  ir::DType t = in.result_dtype(c, ir::DType::INT32);
  long long start = in.int_arg(c, "start");
  long long step = in.literal_true(c, "descending") ? -1 : 1;
  auto fill = [&](std::byte* data) {
    for (long long k = 0, n = shape_numel(shape); k < n; ++k) {
      long long v = start + step * k;
      if (ir::dtype_bytes(t) == 2)  // INT16, UINT16: the low 16 bits
        put<int16_t>(data + k * 2, static_cast<int16_t>(v));
      else
        put<int32_t>(data + k * 4, static_cast<int32_t>(v));
    }
  };
  if (in.site_of(c).tile_result) {
    TileValue out = in.new_tile(c, shape, t, ir::Memory::Vec);
    fill(out.data);
    return out;
  }
  TensorView out = new_owned_tensor(in, c, shape, t);
  fill(out.data);
  return out;
}

void pad_dense_outside(std::byte* data, ir::DType t, const Dims& shape, const Dims& valid,
                       const std::string& pad) {
  pad_outside(data, t, shape, valid, pad);
}

}  // namespace ptodist::runtime
