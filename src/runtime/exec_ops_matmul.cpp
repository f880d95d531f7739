// The matmul forms the float tile kernel does not cover: INT8 x INT8 into an INT32 accumulator (the
// cube unit's integer path), and PyPTO's tensor-level pl.matmul / pl.matmul_acc on GM tensors with
// a_trans / b_trans (its tensor_ops/matmul.cpp), computed through the same tile kernels.
#include <cstring>
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

Matrix as_matrix(const TensorView& t, bool transposed) {
  Matrix m;
  m.dtype = t.dtype;
  const long long r = t.shape[0], k = t.shape[1], eb = ir::dtype_bytes(t.dtype);
  m.rows = transposed ? k : r;
  m.cols = transposed ? r : k;
  m.bytes.resize(static_cast<size_t>(r * k * eb));
  if (!transposed) {
    std::memcpy(m.bytes.data(), t.data, m.bytes.size());
    return m;
  }
  for (long long i = 0; i < r; ++i)
    for (long long j = 0; j < k; ++j)
      std::memcpy(m.bytes.data() + (j * r + i) * eb, t.data + (i * k + j) * eb, static_cast<size_t>(eb));
  return m;
}

kernels::TileView view(std::byte* p, long long rows, long long cols, ir::DType t) {
  return kernels::TileView::contiguous(p, static_cast<int>(rows), static_cast<int>(cols), elem_type(t));
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

// pl.matmul / pl.matmul_acc on GM tensors: a new [M, N] tensor (acc's values plus the product for
// matmul_acc, unless init_cond holds).
Value tensor_matmul(Interp& in, const ir::OpCall& c, bool accumulate) {
  OperandHolder ha, hb;
  TensorView lhs = dense_tensor(in, c, "lhs", ha), rhs = dense_tensor(in, c, "rhs", hb);
  Matrix a = as_matrix(lhs, flag_set(in, c, "a_trans")), b = as_matrix(rhs, flag_set(in, c, "b_trans"));
  if (a.cols != b.rows)
    in.fail(c.span, c.op->spelling + ": inner dims differ: lhs gives K = " + std::to_string(a.cols) +
                        ", rhs K = " + std::to_string(b.rows));
  TensorView out = new_owned_tensor(in, c, {a.rows, b.cols}, in.result_dtype(c, ir::DType::FP32));
  bool add = accumulate && !flag_set(in, c, "init_cond");
  if (add) {
    OperandHolder hc;
    TensorView acc = dense_tensor(in, c, "acc", hc);
    if (acc.shape != out.shape)
      in.fail(c.span, c.op->spelling + ": accumulator " + dims_str(acc.shape) + " does not match " +
                          dims_str(out.shape));
    std::memcpy(out.data, acc.data, static_cast<size_t>(out.numel() * ir::dtype_bytes(out.dtype)));
  }
  if (a.dtype == ir::DType::INT8) {
    int8_matmul(a.bytes.data(), b.bytes.data(), out.data, a.rows, a.cols, b.cols, add);
    return out;
  }
  auto va = view(a.bytes.data(), a.rows, a.cols, a.dtype), vb = view(b.bytes.data(), b.rows, b.cols, b.dtype);
  auto vc = view(out.data, a.rows, b.cols, out.dtype);
  if (add)
    kernels::matmul_acc(va, vb, vc);
  else
    kernels::matmul(va, vb, vc);
  return out;
}

}  // namespace ptodist::runtime
