// Tile matmul on AVX-512: operands widened into per-thread fp32 panels, then a 6 x 64 register-blocked
// FMA micro-kernel. Replaces widen + small cblas_sgemm, whose per-call packing dominates at the
// runtime's tile sizes: it takes 0.83-0.86x the time of the machine's best correct BLAS there
// (docs/benchmarks.md, "Tile matmul").
#include "matmul_avx512.h"

#include <immintrin.h>

#include <cstdint>
#include <cstdlib>

#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels::detail {
namespace {

// Grow-only, 64-byte aligned fp32 buffers owned by the calling thread (core threads call concurrently).
struct Scratch {
  float* buf = nullptr;
  long capacity = 0;
  ~Scratch() { std::free(buf); }
  float* get(long floats) {
    if (floats > capacity) {
      std::free(buf);
      const long bytes = ((floats * 4 + 63) / 64) * 64;
      buf = static_cast<float*>(std::aligned_alloc(64, static_cast<size_t>(bytes)));
      PTODIST_INTERNAL_ASSERT(buf != nullptr, "matmul: out of memory for fp32 scratch");
      capacity = bytes / 4;
    }
    return buf;
  }
};

thread_local Scratch packed_b_scratch;
thread_local Scratch widened_a_scratch;

}  // namespace

bool avx512_matmul_available() {
  static const bool ok = (__builtin_cpu_init(), __builtin_cpu_supports("avx512f")) &&
                         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return ok;
}

const char* avx512_matmul_info() {
  return "AVX-512 fp32 FMA kernel, 6x64 micro-tile, 1 thread per call";
}

// Everything below is compiled for AVX-512; only reached after avx512_matmul_available().
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512bw,avx512vl")
// GCC 12 flags the deliberately undefined upper lanes inside its own AVX-512 conversion intrinsics.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace {

constexpr int kMR = 6;         // rows of C per micro-tile (each a broadcast per K step)
constexpr int kNV = 4;         // zmm vectors per row of the micro-tile
constexpr int kNR = 16 * kNV;  // columns of C per micro-tile: 6 x 4 = 24 accumulators of 32 zmm
// K depth per packed block: one B panel (kKC x kNR fp32 = 32 KiB) stays in L1 while the micro-kernel
// walks down the rows of A.
constexpr int kKC = 128;

__mmask16 low_lanes(int count) {
  if (count <= 0) return 0;
  return count >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << count) - 1);
}

// 16 elements (only the `mask` lanes read; the rest are 0) of a float type, widened to fp32.
__m512 load16(const void* src, ElemType t, __mmask16 mask) {
  if (t == ElemType::F32) return _mm512_maskz_loadu_ps(mask, src);
  const __m256i h = _mm256_maskz_loadu_epi16(mask, src);
  if (t == ElemType::F16) return _mm512_cvtph_ps(h);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));  // bf16: the high half
}

// dst[0, width) = src[0, n) widened, then zeros; width is a multiple of 16.
void widen_padded(const char* src, ElemType t, float* dst, int n, int width) {
  const int bytes = elem_bytes(t);
  for (int i = 0; i < width; i += 16) {
    _mm512_storeu_ps(dst + i, load16(src + static_cast<long>(i) * bytes, t, low_lanes(n - i)));
  }
}

// Rows [k0, k0 + kc) of b as fp32 panels: panel p holds columns [p * kNR, p * kNR + kNR), row-major
// [kc][kNR], zero past the last column, so the micro-kernel never needs a column tail.
void pack_b(const TileView& b, int k0, int kc, float* out) {
  const int panels = (b.cols + kNR - 1) / kNR;
  const int bytes = elem_bytes(b.type);
  for (int k = 0; k < kc; ++k) {
    const char* row = b.row_ptr(k0 + k);
    for (int p = 0; p < panels; ++p) {
      float* dst = out + (static_cast<long>(p) * kc + k) * kNR;
      widen_padded(row + static_cast<long>(p) * kNR * bytes, b.type, dst, b.cols - p * kNR, kNR);
    }
  }
}

// A as fp32 rows: the view itself when it is F32, else a widened dense copy.
struct Rows {
  const float* data;
  long ld;
};

Rows widen_a(const TileView& a) {
  if (a.type == ElemType::F32) return Rows{static_cast<const float*>(a.data), a.row_stride};
  const int width = (a.cols + 15) & ~15;
  float* out = widened_a_scratch.get(static_cast<long>(a.rows) * width);
  for (int r = 0; r < a.rows; ++r)
    widen_padded(a.row_ptr(r), a.type, out + static_cast<long>(r) * width, a.cols, width);
  return Rows{out, width};
}

// c[rows, cols of the masks] (+)= a[rows, kc] @ panel[kc, kNR]. Rows past `rows` read row rows - 1
// again (valid memory) and are never stored, so one unrolled body serves the M tail.
template <int MR>
void micro_kernel(const float* a, long lda, const float* panel, int kc, float* c, long ldc, int rows,
                  const __mmask16* masks, bool accumulate) {
  constexpr int kMR = MR;
  const float* ar[kMR];
  for (int i = 0; i < kMR; ++i) ar[i] = a + (i < rows ? i : rows - 1) * lda;
  __m512 acc[kMR][kNV];
#pragma GCC unroll 6
  for (int i = 0; i < kMR; ++i) {
#pragma GCC unroll 4
    for (int v = 0; v < kNV; ++v) acc[i][v] = _mm512_setzero_ps();
  }
  for (int k = 0; k < kc; ++k) {
    __m512 bv[kNV];
#pragma GCC unroll 4
    for (int v = 0; v < kNV; ++v) bv[v] = _mm512_load_ps(panel + static_cast<long>(k) * kNR + 16 * v);
#pragma GCC unroll 6
    for (int i = 0; i < kMR; ++i) {
      const __m512 ai = _mm512_set1_ps(ar[i][k]);
#pragma GCC unroll 4
      for (int v = 0; v < kNV; ++v) acc[i][v] = _mm512_fmadd_ps(ai, bv[v], acc[i][v]);
    }
  }
#pragma GCC unroll 6
  for (int i = 0; i < kMR; ++i) {
    if (i >= rows) break;
    float* crow = c + i * ldc;
#pragma GCC unroll 4
    for (int v = 0; v < kNV; ++v) {
      __m512 x = acc[i][v];
      if (accumulate) x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(masks[v], crow + 16 * v));
      _mm512_mask_storeu_ps(crow + 16 * v, masks[v], x);
    }
  }
}

}  // namespace

void matmul_avx512(const TileView& a, const TileView& b, const TileView& c, bool accumulate) {
  const int m = a.rows, k = a.cols, n = b.cols;
  const int panels = (n + kNR - 1) / kNR;
  const Rows ra = widen_a(a);
  float* packed = packed_b_scratch.get(static_cast<long>(panels) * kKC * kNR);
  auto* out = static_cast<float*>(c.data);
  for (int k0 = 0; k0 < k; k0 += kKC) {
    const int kc = k - k0 < kKC ? k - k0 : kKC;
    pack_b(b, k0, kc, packed);
    // The first K block sets c (or adds to it for matmul_acc); later blocks add.
    const bool acc = accumulate || k0 > 0;
    for (int p = 0; p < panels; ++p) {
      const int col0 = p * kNR;
      __mmask16 masks[kNV];
      for (int v = 0; v < kNV; ++v) masks[v] = low_lanes(n - col0 - 16 * v);
      const float* panel = packed + static_cast<long>(p) * kc * kNR;
      for (int r0 = 0; r0 < m;) {
        // 6-row micro-tiles, and 4-row ones where they waste fewer rows at the end (128 = 20 x 6 +
        // 2 x 4); a short tile computes its missing rows only to drop them.
        const int left = m - r0;
        const int step = left <= 4 || left == 7 || left == 8 ? 4 : kMR;
        const float* arows = ra.data + r0 * ra.ld + k0;
        float* crows = out + r0 * c.row_stride + col0;
        const int rows = left < step ? left : step;
        if (step == kMR) {
          micro_kernel<kMR>(arows, ra.ld, panel, kc, crows, c.row_stride, rows, masks, acc);
        } else {
          micro_kernel<4>(arows, ra.ld, panel, kc, crows, c.row_stride, rows, masks, acc);
        }
        r0 += rows;
      }
    }
  }
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

}  // namespace ptodist::kernels::detail
