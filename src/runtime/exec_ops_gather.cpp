// The executor of the gather ops: the index form (torch.gather of a GM tensor along one dim, or a
// tile's elements by flat indices) and the mask form (every 2nd or 4th element of each row, the bits
// copied as they are, so output_dtype reinterprets them), pl.scatter, their inverse on GM tensors, and
// pl.scatter_update, which replaces whole rows.
#include <cstring>

#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

// The first element and the stride of the pattern's selection within each group of 4 (PyPTO's
// MaskPattern: P0101 = 1 takes positions 0, 2, ...; P1010 = 2 positions 1, 3, ...; P0001..P1000 = 3..6
// position 0..3 of each 4; P1111 = 7 all).
std::pair<long long, long long> pattern_start_stride(long long p) {
  if (p == 7) return {0, 1};
  if (p <= 2) return {p - 1, 2};
  return {p - 3, 4};
}

// Rows of `src` (dense [rows, cols], `eb` bytes an element) thinned by the pattern into `dst`.
void gather_mask_rows(const std::byte* src, long long rows, long long cols, long long eb, long long pattern,
                      std::byte* dst) {
  auto [start, stride] = pattern_start_stride(pattern);
  long long out_cols = cols / stride;
  for (long long r = 0; r < rows; ++r)
    for (long long k = 0; k < out_cols; ++k)
      std::memcpy(dst + (r * out_cols + k) * eb, src + (r * cols + start + k * stride) * eb,
                  static_cast<size_t>(eb));
}

long long index_at(const std::byte* p, ir::DType t) {
  if (t == ir::DType::INT16) {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

[[noreturn]] void bad_index(Interp& in, const ir::OpCall& c, long long index, long long limit,
                            const Dims& at) {
  in.fail(c.span, c.op->spelling + ": index " + std::to_string(index) + " at " + dims_str(at) +
                      " is outside [0, " + std::to_string(limit) + ")");
}

}  // namespace

Value op_Gather(Interp& in, const ir::OpCall& c) {
  OperandHolder hi, hx;
  TensorView src = dense_tensor(in, c, "input", hi);
  const long long rows = src.shape[0], cols = src.shape[1], eb = ir::dtype_bytes(src.dtype);
  if (in.given_arg(c, "mask_pattern")) {
    long long p = in.int_arg(c, "mask_pattern");
    TensorView out =
        new_owned_tensor(in, c, {rows, cols / pattern_start_stride(p).second}, in.result_dtype(c, src.dtype));
    gather_mask_rows(src.data, rows, cols, eb, p, out.data);
    return out;
  }
  TensorView idx = dense_tensor(in, c, "index", hx);
  TensorView out = new_owned_tensor(in, c, idx.shape, src.dtype);
  // torch.gather: out[p] = src[p with its `dim` coordinate replaced by index[p]] (dense row-major).
  const long long rank = static_cast<long long>(src.shape.size()), ib = ir::dtype_bytes(idx.dtype);
  long long dim = in.int_arg(c, "dim");
  if (dim < 0) dim += rank;
  for (long long p = 0; p < idx.numel(); ++p) {
    Dims at;
    for (long long d = rank - 1, rest = p; d >= 0; --d) {
      at.push_front(rest % idx.shape[d]);
      rest /= idx.shape[d];
    }
    long long j = index_at(idx.data + p * ib, idx.dtype), from = 0;
    if (j < 0 || j >= src.shape[dim]) bad_index(in, c, j, src.shape[dim], at);
    for (long long d = 0; d < rank; ++d) from = from * src.shape[d] + (d == dim ? j : at[d]);
    std::memcpy(out.data + p * eb, src.data + from * eb, static_cast<size_t>(eb));
  }
  return out;
}

Value op_TileGather(Interp& in, const ir::OpCall& c) {
  OperandHolder hs, hi;
  const TileValue& s = in.tile_arg(c, "src", hs);
  const TileValue& i = in.tile_arg(c, "indices", hi);
  TileValue out = in.new_tile(c, i.shape, s.dtype, ir::Memory::Vec);
  const long long n = s.numel(), eb = ir::dtype_bytes(s.dtype), ib = ir::dtype_bytes(i.dtype);
  for (long long e = 0; e < i.numel(); ++e) {
    long long j = index_at(i.data + e * ib, i.dtype);
    if (j < 0 || j >= n) bad_index(in, c, j, n, {e / i.cols(), e % i.cols()});
    std::memcpy(out.data + e * eb, s.data + j * eb, static_cast<size_t>(eb));
  }
  return out;
}

Value op_TileGatherMask(Interp& in, const ir::OpCall& c) {
  OperandHolder hs;
  const TileValue& s = in.tile_arg(c, "src", hs);
  long long p = in.int_arg(c, "mask_pattern");
  TileValue out = in.new_tile(c, {s.shape[0], s.shape[1] / pattern_start_stride(p).second},
                              in.result_dtype(c, s.dtype), ir::Memory::Vec);
  gather_mask_rows(s.data, s.shape[0], s.shape[1], ir::dtype_bytes(s.dtype), p, out.data);
  return out;
}

// pl.scatter: a new tensor holding the base (input for the index form, dst for the mask form) with the
// scattered elements written over it; the index form writes in ascending k, so the last write wins.
Value op_Scatter(Interp& in, const ir::OpCall& c) {
  OperandHolder hi, hx, hs;
  TensorView src = dense_tensor(in, c, "input", hi);
  const long long eb = ir::dtype_bytes(src.dtype);
  if (in.given_arg(c, "mask_pattern")) {
    TensorView dst = dense_tensor(in, c, "dst", hx);
    TensorView out = new_owned_tensor(in, c, dst.shape, dst.dtype);
    std::memcpy(out.data, dst.data, static_cast<size_t>(dst.numel() * eb));
    auto [start, stride] = pattern_start_stride(in.int_arg(c, "mask_pattern"));
    const long long rows = src.shape[0], cols = src.shape[1], out_cols = dst.shape[1];
    for (long long r = 0; r < rows; ++r)
      for (long long k = 0; k < cols; ++k)
        std::memcpy(out.data + (r * out_cols + start + k * stride) * eb, src.data + (r * cols + k) * eb,
                    static_cast<size_t>(eb));
    return out;
  }
  TensorView idx = dense_tensor(in, c, "index", hx);
  TensorView val = dense_tensor(in, c, "src", hs);
  TensorView out = new_owned_tensor(in, c, src.shape, src.dtype);
  std::memcpy(out.data, src.data, static_cast<size_t>(src.numel() * eb));
  const long long cols = src.shape[1], ib = ir::dtype_bytes(idx.dtype);
  for (long long b = 0; b < val.shape[0]; ++b)
    for (long long k = 0; k < val.shape[1]; ++k) {
      long long j = index_at(idx.data + (b * idx.shape[1] + k) * ib, idx.dtype);
      if (j < 0 || j >= cols) bad_index(in, c, j, cols, {b, k});
      std::memcpy(out.data + (b * cols + j) * eb, val.data + (b * val.shape[1] + k) * eb,
                  static_cast<size_t>(eb));
    }
  return out;
}

namespace {

// One operand of pl.scatter_update, tile or GM tensor: dense bytes and shape.
struct RowBlock {
  const std::byte* data = nullptr;
  Dims shape;
  ir::DType dtype = ir::DType::FP32;
  std::shared_ptr<std::byte[]> storage;  // a dense copy of a tensor operand, when one was made
  long long rows() const { return shape_numel(shape) / shape.back(); }
};

RowBlock row_block(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& h, bool tile) {
  if (tile) {
    const TileValue& t = in.tile_arg(c, slot, h);
    return {t.data, t.shape, t.dtype};
  }
  TensorView t = dense_tensor(in, c, slot, h);
  return {t.data, t.shape, t.dtype, t.storage};
}

}  // namespace

// pl.scatter_update: a copy of input whose row index[k] (k over index's elements, row-major) is src's
// row k; a later k overwrites an earlier one. An index outside input's rows, or more indices than src
// has rows, is a located run-time error.
Value op_ScatterUpdate(Interp& in, const ir::OpCall& c) {
  OperandHolder hi, hx, hs;
  const bool tile = std::holds_alternative<TileValue>(in.operand_arg(c, "input", hi));
  RowBlock base = row_block(in, c, "input", hi, tile);
  RowBlock idx = row_block(in, c, "index", hx, tile);
  RowBlock src = row_block(in, c, "src", hs, tile);
  const long long n = shape_numel(idx.shape), row_bytes = base.shape.back() * ir::dtype_bytes(base.dtype);
  if (n > src.rows())
    in.fail(c.span, c.op->spelling + ": " + std::to_string(n) +
                        " indices need as many rows of src, which has " + std::to_string(src.rows()));
  Value result;
  std::byte* out = nullptr;
  if (tile) {
    TileValue t = in.new_tile(c, base.shape, base.dtype, in.tile_arg(c, "input", hi).memory);
    out = t.data;
    result = t;
  } else {
    TensorView t = new_owned_tensor(in, c, base.shape, base.dtype);
    out = t.data;
    result = t;
  }
  std::memmove(out, base.data, static_cast<size_t>(base.rows() * row_bytes));
  const long long ib = ir::dtype_bytes(idx.dtype);
  for (long long k = 0; k < n; ++k) {
    long long row = static_cast<long long>(load_element(idx.data + k * ib, idx.dtype));
    if (row < 0 || row >= base.rows())
      bad_index(in, c, row, base.rows(), {k / idx.shape[1], k % idx.shape[1]});
    std::memcpy(out + row * row_bytes, src.data + k * row_bytes, static_cast<size_t>(row_bytes));
  }
  return result;
}

}  // namespace ptodist::runtime
