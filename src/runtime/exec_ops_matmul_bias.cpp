// pl.matmul_bias (PyPTO's tile.matmul_bias, pto.tmatmul.bias): lhs @ rhs + bias into a new Acc tile.
// The product covers lhs's valid rows and K and rhs's valid columns, as the cube reads them; the bias
// row is then added to every row, in the accumulator dtype (FP32, or INT32 wrapping as the device's
// accumulator does). The result is valid over that [M, N] rectangle.
#include <cstring>
#include <vector>

#include "exec.h"
#include "ptodist/kernels/matmul.h"
#include "tile_math.h"

namespace ptodist::runtime {

namespace {

long long valid_dim(const TileValue& t, size_t i) {
  return t.valid.size() == t.shape.size() ? t.valid[i] : t.shape[i];
}

// The [rows, cols] top-left block of the 2-D tile `t`, dense.
std::vector<std::byte> dense_block(const TileValue& t, long long rows, long long cols) {
  const long long bytes = ir::dtype_bytes(t.dtype);
  std::vector<std::byte> out(static_cast<size_t>(rows * cols * bytes));
  for (long long r = 0; r < rows; ++r)
    std::memcpy(out.data() + r * cols * bytes, t.data + r * t.cols() * bytes,
                static_cast<size_t>(cols * bytes));
  return out;
}

}  // namespace

Value op_MatmulBias(Interp& in, const ir::OpCall& c) {
  OperandHolder ha, hb, hbias;
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  const TileValue& bias = in.tile_arg(c, "bias", hbias);
  if (a.shape.size() != 2 || b.shape.size() != 2 || bias.shape.size() != 2 || a.cols() != b.rows() ||
      bias.rows() != 1 || bias.cols() != b.cols())
    in.fail(c.span, c.op->spelling + ": lhs " + dims_str(a.shape) + ", rhs " + dims_str(b.shape) +
                        " and bias " + dims_str(bias.shape) + " must be [M, K], [K, N] and [1, N]");
  const bool int8 = a.dtype == ir::DType::INT8 && b.dtype == ir::DType::INT8;
  const ir::DType acc_type = int8 ? ir::DType::INT32 : ir::DType::FP32;
  if (bias.dtype != acc_type ||
      (!int8 && !kernels::matmul_supported(elem_type(a.dtype), elem_type(b.dtype), elem_type(acc_type))))
    in.fail(c.span, c.op->spelling +
                        ": operands must be FP16, BF16 or FP32 with an FP32 bias, or INT8 with an INT32 one");
  const long long m = valid_dim(a, 0), k = valid_dim(a, 1), n = valid_dim(b, 1);
  if (valid_dim(b, 0) < k || valid_dim(bias, 1) < n)
    in.fail(c.span, c.op->spelling + ": rhs valid K " + std::to_string(valid_dim(b, 0)) +
                        " and bias valid N " + std::to_string(valid_dim(bias, 1)) +
                        " must cover lhs valid K " + std::to_string(k) + " and rhs valid N " +
                        std::to_string(n));
  std::vector<std::byte> lhs = dense_block(a, m, k), rhs = dense_block(b, k, n);
  std::vector<std::byte> product(static_cast<size_t>(m * n * 4));
  if (int8) {
    int8_matmul(lhs.data(), rhs.data(), product.data(), m, k, n, false);
  } else {
    auto view = [](std::vector<std::byte>& v, long long rows, long long cols, ir::DType t) {
      return kernels::TileView::contiguous(v.data(), static_cast<int>(rows), static_cast<int>(cols),
                                           elem_type(t));
    };
    kernels::matmul(view(lhs, m, k, a.dtype), view(rhs, k, n, b.dtype), view(product, m, n, acc_type));
  }
  TileValue out = in.new_tile(c, {a.rows(), b.cols()}, acc_type, ir::Memory::Acc);
  for (long long i = 0; i < m; ++i)
    for (long long j = 0; j < n; ++j) {
      std::byte* dst = out.data + (i * b.cols() + j) * 4;
      const std::byte* p = product.data() + (i * n + j) * 4;
      const std::byte* add = bias.data + j * 4;
      if (int8) {
        uint32_t x, y;
        std::memcpy(&x, p, 4);
        std::memcpy(&y, add, 4);
        x += y;  // the INT32 accumulator wraps
        std::memcpy(dst, &x, 4);
      } else {
        float x, y;
        std::memcpy(&x, p, 4);
        std::memcpy(&y, add, 4);
        x += y;
        std::memcpy(dst, &x, 4);
      }
    }
  if (m != a.rows() || n != b.cols()) out.valid = {m, n};
  return out;
}

}  // namespace ptodist::runtime
