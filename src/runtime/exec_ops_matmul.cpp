// The matmul forms the float tile kernel does not cover: INT8 x INT8 into an INT32 accumulator (the
// cube unit's integer path), and PyPTO's tensor-level pl.matmul / pl.matmul_acc on GM tensors with
// a_trans / b_trans, broadcast batch dims and vector operands (its tensor_ops/matmul.cpp), and its
// batched tile form pl.batch_matmul, computed through the same tile kernels.
#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "exec.h"
#include "ptodist/kernels/matmul.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

bool flag_set(Interp& in, const ir::OpCall& c, OperandName slot) {
  return in.given_arg(c, slot) && in.int_arg(c, slot) != 0;
}

// A dense row-major [rows, cols] matrix; `transposed` reads the [cols, rows] operand across.
struct Matrix {
  std::vector<std::byte> bytes;
  long long rows = 0, cols = 0;
  ir::DType dtype = ir::DType::FP32;
};

Matrix as_matrix(const std::byte* p, long long r, long long k, ir::DType dtype, bool transposed) {
  Matrix m;
  m.dtype = dtype;
  const long long eb = ir::dtype_bytes(dtype);
  m.rows = transposed ? k : r;
  m.cols = transposed ? r : k;
  m.bytes.resize(static_cast<size_t>(r * k * eb));
  if (!transposed) {
    std::memcpy(m.bytes.data(), p, m.bytes.size());
    return m;
  }
  for (long long i = 0; i < r; ++i)
    for (long long j = 0; j < k; ++j)
      std::memcpy(m.bytes.data() + (j * r + i) * eb, p + (i * k + j) * eb, static_cast<size_t>(eb));
  return m;
}

// A dense operand as a stack of matrices (PyPTO's tensor matmul operands): the batch dims before the
// trailing two, each matrix [rows, cols] as stored; a 1-D lhs is one row, a 1-D rhs one column.
struct Stack {
  const std::byte* data = nullptr;
  ir::DType dtype = ir::DType::FP32;
  Dims batch;
  long long rows = 1, cols = 1;
  long long matrix_bytes() const { return rows * cols * ir::dtype_bytes(dtype); }
};

Stack as_stack(const TensorView& t, bool is_lhs) {
  Stack s{t.data, t.dtype, {}, 1, 1};
  const size_t n = t.shape.size();
  if (n == 1) {
    (is_lhs ? s.cols : s.rows) = t.shape[0];
    return s;
  }
  s.batch = Dims(std::span<const long long>(t.shape.begin(), n - 2));
  s.rows = t.shape[n - 2];
  s.cols = t.shape[n - 1];
  return s;
}

// numpy's broadcast of two batch shapes (right-aligned, a 1 repeats), or nullopt when they clash.
std::optional<Dims> broadcast(const Dims& a, const Dims& b) {
  const size_t n = std::max(a.size(), b.size());
  Dims out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    long long x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[n - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

// The matrix of `s` that batch index `idx` (in the broadcast batch shape) reads.
const std::byte* matrix_at(const Stack& s, const Dims& idx) {
  long long linear = 0;
  const size_t skip = idx.size() - s.batch.size();
  for (size_t i = 0; i < s.batch.size(); ++i)
    linear = linear * s.batch[i] + (s.batch[i] == 1 ? 0 : idx[skip + i]);
  return s.data + linear * s.matrix_bytes();
}

kernels::TileView view(std::byte* p, long long rows, long long cols, ir::DType t) {
  return kernels::TileView::contiguous(p, static_cast<int>(rows), static_cast<int>(cols), elem_type(t));
}

// One [M, K] x [K, N] product into `c` (added to it with `add`).
void matmul_into(Matrix& a, Matrix& b, std::byte* c, ir::DType out_dtype, bool add) {
  if (a.dtype == ir::DType::INT8) {
    int8_matmul(a.bytes.data(), b.bytes.data(), c, a.rows, a.cols, b.cols, add);
    return;
  }
  auto va = view(a.bytes.data(), a.rows, a.cols, a.dtype), vb = view(b.bytes.data(), b.rows, b.cols, b.dtype);
  auto vc = view(c, a.rows, b.cols, out_dtype);
  if (add)
    kernels::matmul_acc(va, vb, vc);
  else
    kernels::matmul(va, vb, vc);
}

// For each index of the broadcast batch dims `batch`, the product of the matrices of `sa` and `sb` there
// (each read transposed when its flag is set) into the matching [m, n] matrix of `out` (added to it
// with `add`).
void multiply_batches(const Stack& sa, const Stack& sb, bool at, bool bt, const Dims& batch, long long m,
                      long long n, std::byte* out, ir::DType out_dtype, bool add) {
  const long long out_matrix = m * n * ir::dtype_bytes(out_dtype);
  Dims idx(batch.size(), 0);
  for (long long b = 0, count = shape_numel(batch); b < count; ++b) {
    for (size_t i = idx.size(), rest = static_cast<size_t>(b); i-- > 0; rest /= batch[i])
      idx[i] = static_cast<long long>(rest % batch[i]);
    Matrix ma = as_matrix(matrix_at(sa, idx), sa.rows, sa.cols, sa.dtype, at);
    Matrix mb = as_matrix(matrix_at(sb, idx), sb.rows, sb.cols, sb.dtype, bt);
    matmul_into(ma, mb, out + b * out_matrix, out_dtype, add);
  }
}

}  // namespace

void int8_matmul(const std::byte* a, const std::byte* b, std::byte* c, long long m, long long k, long long n,
                 bool add) {
  const auto* pa = reinterpret_cast<const int8_t*>(a);
  const auto* pb = reinterpret_cast<const int8_t*>(b);
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      // int32 wraps as the device's accumulator does; K * 127 * 128 fits for every K below 2^17.
      int64_t s = 0;
      for (long long p = 0; p < k; ++p) s += int64_t{pa[i * k + p]} * int64_t{pb[p * n + j]};
      int32_t prev = 0;
      if (add) std::memcpy(&prev, c + (i * n + j) * 4, 4);
      auto v = static_cast<int32_t>(static_cast<uint32_t>(prev) + static_cast<uint32_t>(s));
      std::memcpy(c + (i * n + j) * 4, &v, 4);
    }
}

// pl.matmul / pl.matmul_acc on GM tensors (PyPTO's tensor_ops/matmul.cpp): a new tensor holding, for
// each index of the broadcast batch dims, the product of the two operands' matrices there (acc's
// values plus the products for matmul_acc, unless init_cond holds). A vector operand drops its dim.
Value tensor_matmul(Interp& in, const ir::OpCall& c, bool accumulate) {
  OperandHolder ha, hb;
  TensorView lhs = dense_tensor(in, c, "lhs", ha), rhs = dense_tensor(in, c, "rhs", hb);
  const bool at = flag_set(in, c, "a_trans"), bt = flag_set(in, c, "b_trans");
  Stack sa = as_stack(lhs, true), sb = as_stack(rhs, false);
  const long long m = at ? sa.cols : sa.rows, ka = at ? sa.rows : sa.cols;
  const long long kb = bt ? sb.cols : sb.rows, n = bt ? sb.rows : sb.cols;
  if (ka != kb)
    in.fail(c.span, c.op->spelling + ": inner dims differ: lhs gives K = " + std::to_string(ka) +
                        ", rhs K = " + std::to_string(kb));
  std::optional<Dims> batch = broadcast(sa.batch, sb.batch);
  if (!batch)
    in.fail(c.span, c.op->spelling + ": batch dims " + dims_str(sa.batch) + " and " + dims_str(sb.batch) +
                        " do not broadcast");
  Dims shape = *batch;
  if (lhs.shape.size() > 1) shape.push_back(m);
  if (rhs.shape.size() > 1) shape.push_back(n);
  TensorView out = new_owned_tensor(in, c, shape, in.result_dtype(c, ir::DType::FP32));
  bool add = accumulate && !flag_set(in, c, "init_cond");
  if (add) {
    OperandHolder hc;
    TensorView acc = dense_tensor(in, c, "acc", hc);
    if (acc.shape != out.shape)
      in.fail(c.span, c.op->spelling + ": accumulator " + dims_str(acc.shape) + " does not match " +
                          dims_str(out.shape));
    std::memcpy(out.data, acc.data, static_cast<size_t>(out.numel() * ir::dtype_bytes(out.dtype)));
  }
  multiply_batches(sa, sb, at, bt, *batch, m, n, out.data, out.dtype, add);
  return out;
}

// pl.batch_matmul (PyPTO's tile.batch_matmul): the tile form of the batched product above, without
// flags, into a new Acc tile [broadcast batch..., M, N] of the accumulator dtype.
Value op_BatchMatmul(Interp& in, const ir::OpCall& c) {
  OperandHolder ha, hb;
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  const size_t na = a.shape.size(), nb = b.shape.size();
  if (na < 2 || nb < 2)
    in.fail(c.span, c.op->spelling + ": lhs " + dims_str(a.shape) + " and rhs " + dims_str(b.shape) +
                        " must each be at least 2-D");
  Stack sa{a.data, a.dtype, Dims(std::span<const long long>(a.shape.begin(), na - 2)), a.shape[na - 2],
           a.shape[na - 1]};
  Stack sb{b.data, b.dtype, Dims(std::span<const long long>(b.shape.begin(), nb - 2)), b.shape[nb - 2],
           b.shape[nb - 1]};
  if (sa.cols != sb.rows)
    in.fail(c.span, c.op->spelling + ": inner dims differ: lhs " + dims_str(a.shape) + " and rhs " +
                        dims_str(b.shape));
  const bool int8 = a.dtype == ir::DType::INT8 && b.dtype == ir::DType::INT8;
  const ir::DType acc_type = int8 ? ir::DType::INT32 : ir::DType::FP32;
  if (!int8 && !kernels::matmul_supported(elem_type(a.dtype), elem_type(b.dtype), elem_type(acc_type)))
    in.fail(c.span, c.op->spelling + ": operands must be FP16, BF16 or FP32, or both INT8");
  std::optional<Dims> batch = broadcast(sa.batch, sb.batch);
  if (!batch)
    in.fail(c.span, c.op->spelling + ": batch dims " + dims_str(sa.batch) + " and " + dims_str(sb.batch) +
                        " do not broadcast");
  Dims shape = *batch;
  shape.push_back(sa.rows);
  shape.push_back(sb.cols);
  TileValue out = in.new_tile(c, shape, acc_type, ir::Memory::Acc);
  multiply_batches(sa, sb, false, false, *batch, sa.rows, sb.cols, out.data, acc_type, false);
  return out;
}

}  // namespace ptodist::runtime
