// The cube's variants beyond pl.matmul / pl.matmul_acc (exec_ops_compute.cpp), each a new Acc tile:
// - pl.matmul_bias (PyPTO's tile.matmul_bias, pto.tmatmul.bias): lhs @ rhs + bias, the bias row added
//   to every row of the product;
// - pl.gemv / pl.gemv_bias / pl.gemv_acc (pto.tgemv, .bias, .acc): the one-row product (+ bias, or
//   + acc's row), in a [16, N] tile valid over [1, N] as PyPTO types it.
// The product covers lhs's valid rows and K and rhs's valid columns, as the cube reads them; sums are in
// the accumulator dtype (FP32, or INT32 wrapping as the device's accumulator does). acc_phase is a hint
// to the cube's pipeline and changes no value.
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

// The product of a cube op's lhs and rhs over their valid regions: [m, n] values of the accumulator
// dtype (`acc`), dense.
struct Product {
  long long m = 0, n = 0;
  ir::DType acc = ir::DType::FP32;
  std::vector<std::byte> values;
};

Product cube_product(Interp& in, const ir::OpCall& c, const TileValue& a, const TileValue& b) {
  if (a.shape.size() != 2 || b.shape.size() != 2 || a.cols() != b.rows())
    in.fail(c.span, c.op->spelling + ": lhs " + dims_str(a.shape) + " and rhs " + dims_str(b.shape) +
                        " must be [M, K] and [K, N]");
  const bool int8 = a.dtype == ir::DType::INT8 && b.dtype == ir::DType::INT8;
  Product p;
  p.acc = int8 ? ir::DType::INT32 : ir::DType::FP32;
  if (!int8 && !kernels::matmul_supported(elem_type(a.dtype), elem_type(b.dtype), elem_type(p.acc)))
    in.fail(c.span, c.op->spelling + ": operands must be FP16, BF16 or FP32, or both INT8");
  const long long k = valid_dim(a, 1);
  p.m = valid_dim(a, 0);
  p.n = valid_dim(b, 1);
  if (valid_dim(b, 0) < k)
    in.fail(c.span, c.op->spelling + ": rhs valid K " + std::to_string(valid_dim(b, 0)) +
                        " must cover lhs valid K " + std::to_string(k));
  std::vector<std::byte> lhs = dense_block(a, p.m, k), rhs = dense_block(b, k, p.n);
  p.values.resize(static_cast<size_t>(p.m * p.n * 4));
  if (int8) {
    int8_matmul(lhs.data(), rhs.data(), p.values.data(), p.m, k, p.n, false);
  } else {
    auto view = [](std::vector<std::byte>& v, long long rows, long long cols, ir::DType t) {
      return kernels::TileView::contiguous(v.data(), static_cast<int>(rows), static_cast<int>(cols),
                                           elem_type(t));
    };
    kernels::matmul(view(lhs, p.m, k, a.dtype), view(rhs, k, p.n, b.dtype), view(p.values, p.m, p.n, p.acc));
  }
  return p;
}

// dst = x + y for one 4-byte accumulator element (INT32 wraps).
void add_acc(std::byte* dst, const std::byte* x, const std::byte* y, ir::DType acc) {
  if (acc == ir::DType::INT32) {
    uint32_t a, b;
    std::memcpy(&a, x, 4);
    std::memcpy(&b, y, 4);
    a += b;
    std::memcpy(dst, &a, 4);
  } else {
    float a, b;
    std::memcpy(&a, x, 4);
    std::memcpy(&b, y, 4);
    a += b;
    std::memcpy(dst, &a, 4);
  }
}

// The Acc tile of `rows` x rhs's columns holding the product, each row plus `addend`'s row 0 (the bias)
// or its row i (an accumulator), when given; valid over the product.
TileValue product_tile(Interp& in, const ir::OpCall& c, const Product& p, long long rows, long long cols,
                       const TileValue* addend, bool same_row) {
  if (addend && (addend->dtype != p.acc || valid_dim(*addend, 1) < p.n || addend->shape.size() != 2))
    in.fail(c.span, c.op->spelling + ": the " + (same_row ? "accumulator" : "bias") + " must have dtype " +
                        std::string(ir::dtype_name(p.acc)) + " and cover the product's " +
                        std::to_string(p.n) + " valid columns");
  TileValue out = in.new_tile(c, {rows, cols}, p.acc, ir::Memory::Acc);
  for (long long i = 0; i < p.m; ++i)
    for (long long j = 0; j < p.n; ++j) {
      std::byte* dst = out.data + (i * cols + j) * 4;
      const std::byte* v = p.values.data() + (i * p.n + j) * 4;
      if (addend)
        add_acc(dst, v, addend->data + ((same_row ? i : 0) * addend->cols() + j) * 4, p.acc);
      else
        std::memcpy(dst, v, 4);
    }
  if (p.m != rows || p.n != cols) out.valid = {p.m, p.n};
  return out;
}

// A GEMV's lhs is one row; its result a [16, N] tile (one cube fractal of rows).
constexpr long long kGemvRows = 16;

// The GEMV of lhs and rhs plus `addend` (a bias row, or an accumulator's row when `same_row`), if any.
Value gemv(Interp& in, const ir::OpCall& c, const TileValue* addend, bool same_row) {
  OperandHolder ha, hb;
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  if (a.shape.size() != 2 || a.rows() != 1 || valid_dim(a, 0) != 1)
    in.fail(c.span, c.op->spelling + ": lhs " + dims_str(a.shape) + " must be one row [1, K]");
  return product_tile(in, c, cube_product(in, c, a, b), kGemvRows, b.cols(), addend, same_row);
}

}  // namespace

Value op_MatmulBias(Interp& in, const ir::OpCall& c) {
  OperandHolder ha, hb, hbias;
  const TileValue& a = in.tile_arg(c, "lhs", ha);
  const TileValue& b = in.tile_arg(c, "rhs", hb);
  const TileValue& bias = in.tile_arg(c, "bias", hbias);
  Product p = cube_product(in, c, a, b);
  return product_tile(in, c, p, a.rows(), b.cols(), &bias, false);
}

Value op_Gemv(Interp& in, const ir::OpCall& c) {
  return gemv(in, c, nullptr, false);
}

Value op_GemvBias(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  return gemv(in, c, &in.tile_arg(c, "bias", h), false);
}

Value op_GemvAcc(Interp& in, const ir::OpCall& c) {
  OperandHolder h;
  return gemv(in, c, &in.tile_arg(c, "acc", h), true);
}

}  // namespace ptodist::runtime
