// Tile matmul: the AVX-512 micro-kernel where the CPU has it, else widen fp16/bf16 panels into
// per-thread fp32 scratch and call one single-threaded sgemm.
#include "ptodist/kernels/matmul.h"

#include <cblas.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "blas_setup.h"
#include "matmul_avx512.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {
namespace {

// Grow-only fp32 scratch owned by the calling thread, 64-byte aligned for the sgemm packing loads.
float* thread_scratch(long floats) {
  struct Scratch {
    std::unique_ptr<float[], decltype(&std::free)> buf{nullptr, &std::free};
    long capacity = 0;
  };
  thread_local Scratch s;
  if (floats > s.capacity) {
    const long bytes = ((floats * 4 + 63) / 64) * 64;
    s.buf.reset(static_cast<float*>(std::aligned_alloc(64, static_cast<size_t>(bytes))));
    PTODIST_INTERNAL_ASSERT(s.buf != nullptr, "matmul: out of memory for fp32 scratch");
    s.capacity = bytes / 4;
  }
  return s.buf.get();
}

// An fp32 operand for sgemm: either the view itself (F32) or its widened copy in scratch.
struct Panel {
  const float* data;
  long ld;
};

Panel widen(const TileView& v, float* scratch) {
  if (v.type == ElemType::F32) return Panel{static_cast<const float*>(v.data), v.row_stride};
  for (int r = 0; r < v.rows; ++r) {
    const auto* src = reinterpret_cast<const uint16_t*>(v.row_ptr(r));
    float* dst = scratch + static_cast<long>(r) * v.cols;
    if (v.type == ElemType::F16) {
      fp16_to_fp32_n(src, dst, v.cols);
    } else {
      bf16_to_fp32_n(src, dst, v.cols);
    }
  }
  return Panel{scratch, v.cols};
}

long widened_floats(const TileView& v) {
  return v.type == ElemType::F32 ? 0 : v.elements();
}

void check_operands(const TileView& a, const TileView& b, const TileView& c) {
  PTODIST_INTERNAL_ASSERT(matmul_supported(a.type, b.type, c.type), "matmul: unsupported operand types");
  PTODIST_INTERNAL_ASSERT(a.cols == b.rows && a.rows == c.rows && b.cols == c.cols,
                          "matmul: shapes do not chain ([M,K] @ [K,N] -> [M,N])");
  PTODIST_INTERNAL_ASSERT(a.row_stride >= a.cols && b.row_stride >= b.cols && c.row_stride >= c.cols,
                          "matmul: row stride shorter than a row");
}

MatmulPath initial_path() {
  const char* env = std::getenv("PTODIST_MATMUL");
  if (env != nullptr && std::strcmp(env, "openblas") == 0) return MatmulPath::OpenBlas;
  return MatmulPath::Auto;
}

std::atomic<MatmulPath> chosen_path{initial_path()};

bool use_avx512() {
  const MatmulPath p = chosen_path.load(std::memory_order_relaxed);
  return p != MatmulPath::OpenBlas && detail::avx512_matmul_available();
}

void gemm(const TileView& a, const TileView& b, const TileView& c, float beta) {
  check_operands(a, b, c);
  const int m = a.rows, k = a.cols, n = b.cols;
  if (m == 0 || n == 0) return;
  auto* out = static_cast<float*>(c.data);
  if (k == 0) {  // an empty sum: c = 0 (or unchanged when accumulating); sgemm rejects lda == 0
    if (beta == 0.0f) {
      for (int r = 0; r < m; ++r) std::memset(out + static_cast<long>(r) * c.row_stride, 0, n * 4);
    }
    return;
  }
  if (use_avx512()) {
    detail::matmul_avx512(a, b, c, beta != 0.0f);
    return;
  }
  detail::prepare_blas();
  float* scratch = thread_scratch(widened_floats(a) + widened_floats(b));
  const Panel pa = widen(a, scratch);
  const Panel pb = widen(b, scratch + widened_floats(a));
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, pa.data, static_cast<int>(pa.ld),
              pb.data, static_cast<int>(pb.ld), beta, out, static_cast<int>(c.row_stride));
}

}  // namespace

bool matmul_supported(ElemType a, ElemType b, ElemType c) {
  return elem_is_float(a) && elem_is_float(b) && c == ElemType::F32;
}

void matmul(const TileView& a, const TileView& b, const TileView& c) {
  gemm(a, b, c, 0.0f);
}

void matmul_acc(const TileView& a, const TileView& b, const TileView& c) {
  gemm(a, b, c, 1.0f);
}

std::string matmul_backend() {
  return use_avx512() ? detail::avx512_matmul_info() : detail::blas_info();
}

void prepare_openblas() {
  detail::prepare_blas();
}

bool set_matmul_path(MatmulPath path) {
  if (path == MatmulPath::Avx512 && !detail::avx512_matmul_available()) return false;
  chosen_path.store(path, std::memory_order_relaxed);
  return true;
}

}  // namespace ptodist::kernels
