// The executor of the sorting ops and pl.transpose, on tiles or (their tensor-level forms) GM tensors,
// and of pl.tile.transpose_view.
// Sorting follows pto-isa's TSORT32 / TMRGSORT on FP32: a row of (value, index) pairs, two 4-byte slots
// each (the index's bits in the second), ordered by value, largest first. Ties keep their order (the
// earlier position, or the earlier list of a merge, first); a NaN sorts below every number, as the -NaN
// that pto-isa pads a short block with.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "exec.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

// The dense bytes of a tile or GM tensor operand, as a copy `keep` holds: plan-memory may give the
// result the operand's buffer (a loop that merges its carried tile: `acc = pl.mrgsort(acc, ...)`), and
// the result is written while the operand is still read.
struct Dense {
  const std::byte* data = nullptr;
  Dims shape;
  ir::DType dtype = ir::DType::FP32;
  bool tensor = false;  // a GM tensor operand: the op's tensor-level form
};

Dense dense_operand(Interp& in, const ir::OpCall& c, OperandName slot, OperandHolder& h, TensorView& keep) {
  if (std::holds_alternative<TensorView>(in.operand_arg(c, slot, h))) {
    keep = dense_tensor(in, c, slot, h);
    return {keep.data, keep.shape, keep.dtype, true};
  }
  const TileValue& t = in.tile_arg(c, slot, h);
  keep = new_owned_tensor(in, c, t.shape, t.dtype);
  std::memcpy(keep.data, t.data, static_cast<size_t>(t.bytes()));
  return {keep.data, t.shape, t.dtype, false};
}

// A new result of `shape`: a tile, or a tensor for the tensor-level form; `data` points at its bytes.
Value new_result(Interp& in, const ir::OpCall& c, const Dims& shape, ir::DType dtype, std::byte*& data,
                 bool tensor) {
  if (!tensor) {
    TileValue t = in.new_tile(c, shape, dtype, ir::Memory::Vec);
    data = t.data;
    return t;
  }
  TensorView t = new_owned_tensor(in, c, shape, dtype);
  data = t.data;
  return t;
}

struct Pair {
  float value;
  uint32_t index;
};

// True when `a` sorts before `b`: larger values first, NaN below every number.
bool before(float a, float b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a > b;
}

Pair pair_at(const std::byte* p, long long k) {
  Pair x;
  std::memcpy(&x.value, p + k * 8, 4);
  std::memcpy(&x.index, p + k * 8 + 4, 4);
  return x;
}

void put_pair(std::byte* p, long long k, const Pair& x) {
  std::memcpy(p + k * 8, &x.value, 4);
  std::memcpy(p + k * 8 + 4, &x.index, 4);
}

// Merges sorted runs of pairs (`runs`: start and length in pairs) into `out`, taking from the earliest
// run on ties, as TMRGSORT does.
void merge_runs(const std::vector<std::pair<const std::byte*, long long>>& runs, std::byte* out) {
  std::vector<long long> at(runs.size(), 0);
  long long total = 0;
  for (const auto& r : runs) total += r.second;
  for (long long k = 0; k < total; ++k) {
    size_t best = runs.size();
    for (size_t i = 0; i < runs.size(); ++i) {
      if (at[i] == runs[i].second) continue;
      if (best == runs.size() ||
          before(pair_at(runs[i].first, at[i]).value, pair_at(runs[best].first, at[best]).value))
        best = i;
    }
    put_pair(out, k, pair_at(runs[best].first, at[best]++));
  }
}

}  // namespace

Value op_Sort32(Interp& in, const ir::OpCall& c) {
  OperandHolder hs, hi;
  TensorView ks, ki;
  Dense src = dense_operand(in, c, "src", hs, ks), idx = dense_operand(in, c, "idx", hi, ki);
  const long long rows = src.shape[0], cols = src.shape[1];
  if (cols % 32 != 0)
    in.fail(c.span,
            c.op->spelling + ": a row of " + std::to_string(cols) + " values is not whole 32-element blocks");
  std::byte* out = nullptr;
  Value result = new_result(in, c, {rows, cols * 2}, src.dtype, out, src.tensor);
  const bool shared_idx = idx.shape[0] == 1;
  for (long long r = 0; r < rows; ++r)
    for (long long b = 0; b < cols / 32; ++b) {
      Pair block[32];
      for (long long k = 0; k < 32; ++k) {
        long long col = b * 32 + k;
        std::memcpy(&block[k].value, src.data + (r * cols + col) * 4, 4);
        std::memcpy(&block[k].index, idx.data + ((shared_idx ? 0 : r) * cols + col) * 4, 4);
      }
      std::stable_sort(block, block + 32,
                       [](const Pair& x, const Pair& y) { return before(x.value, y.value); });
      for (long long k = 0; k < 32; ++k) put_pair(out + r * cols * 8, b * 32 + k, block[k]);
    }
  return result;
}

Value op_MrgSort(Interp& in, const ir::OpCall& c) {
  std::byte* out = nullptr;
  if (in.given_arg(c, "block_len")) {  // format1: groups of 4 runs of block_len slots
    OperandHolder h;
    TensorView keep;
    Dense src = dense_operand(in, c, "src0", h, keep);
    const long long slots = src.shape[1], block = in.int_arg(c, "block_len");
    if (block <= 0 || block % 64 != 0 || slots % (4 * block) != 0)
      in.fail(c.span, c.op->spelling + ": block_len " + std::to_string(block) +
                          " must be a positive multiple of 64 "
                          "whose 4 runs tile the row of " +
                          std::to_string(slots) + " slots");
    Value result = new_result(in, c, src.shape, src.dtype, out, src.tensor);
    const long long run = block / 2;  // pairs per run
    for (long long g = 0; g < slots / 2; g += 4 * run) {
      std::vector<std::pair<const std::byte*, long long>> runs;
      for (long long i = 0; i < 4; ++i) runs.push_back({src.data + (g + i * run) * 8, run});
      merge_runs(runs, out + g * 8);
    }
    return result;
  }
  std::vector<OperandHolder> holders(4);
  std::vector<TensorView> keeps(4);
  std::vector<std::pair<const std::byte*, long long>> runs;
  long long total = 0;
  ir::DType dt = ir::DType::FP32;
  bool tensor = false;
  static constexpr OperandName names[] = {"src0", "src1", "src2", "src3"};
  for (int i = 0; i < 4; ++i) {
    if (!in.given_arg(c, names[i])) continue;
    Dense s = dense_operand(in, c, names[i], holders[i], keeps[i]);
    runs.push_back({s.data, s.shape[1] / 2});
    total += s.shape[1];
    dt = s.dtype;
    tensor = s.tensor;
  }
  Value result = new_result(in, c, {1, total}, dt, out, tensor);
  merge_runs(runs, out);
  return result;
}

namespace {

// `src` (dense, `shape`) with axes a and b swapped, written densely to `out`.
void transpose_into(const std::byte* src, const Dims& shape, ir::DType dtype, long long a, long long b,
                    std::byte* out) {
  const auto rank = static_cast<long long>(shape.size());
  Dims to = shape;
  std::swap(to[static_cast<size_t>(a)], to[static_cast<size_t>(b)]);
  const long long eb = ir::dtype_bytes(dtype), n = shape_numel(to);
  Dims at(static_cast<size_t>(rank), 0);  // the index in the result, advanced like an odometer
  for (long long k = 0; k < n; ++k) {
    Dims from = at;
    std::swap(from[static_cast<size_t>(a)], from[static_cast<size_t>(b)]);
    long long off = 0;
    for (long long d = 0; d < rank; ++d)
      off = off * shape[static_cast<size_t>(d)] + from[static_cast<size_t>(d)];
    std::memcpy(out + k * eb, src + off * eb, static_cast<size_t>(eb));
    for (long long d = rank - 1; d >= 0 && ++at[static_cast<size_t>(d)] == to[static_cast<size_t>(d)]; --d)
      at[static_cast<size_t>(d)] = 0;
  }
}

}  // namespace

Value op_Transpose(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  TensorView keep;
  Dense src = dense_operand(in, c, "input", h, keep);
  const auto rank = static_cast<long long>(src.shape.size());
  long long a = in.int_arg(c, "axis1"), b = in.int_arg(c, "axis2");
  a = a < 0 ? a + rank : a;
  b = b < 0 ? b + rank : b;
  Dims shape = src.shape;
  std::swap(shape[static_cast<size_t>(a)], shape[static_cast<size_t>(b)]);
  std::byte* out = nullptr;
  Value result = new_result(in, c, shape, src.dtype, out, src.tensor);
  transpose_into(src.data, src.shape, src.dtype, a, b, out);
  return result;
}

// PyPTO's view reads the source's bytes in the transposed fractal layout (NZ as ZN), which is the
// source transposed; the executor keeps tiles row-major, so it holds that transpose in bytes of its own
// (plan-memory places the view on the source's buffer, as PyPTO does, so the planned address is not it).
Value op_TransposeView(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  const TileValue& src = in.tile_arg(c, "tile", h);
  const auto rank = static_cast<long long>(src.shape.size());
  Dims shape = src.shape;
  std::swap(shape[static_cast<size_t>(rank - 2)], shape[static_cast<size_t>(rank - 1)]);
  TileValue out = in.new_unplaced_tile(c, shape, src.dtype, src.memory);
  transpose_into(src.data, src.shape, src.dtype, rank - 2, rank - 1, out.data);
  out.valid = src.valid;
  if (!out.valid.empty())
    std::swap(out.valid[static_cast<size_t>(rank - 2)], out.valid[static_cast<size_t>(rank - 1)]);
  return out;
}

}  // namespace ptodist::runtime
