// Tile matrix multiply for the CPU runtime: fp16/bf16/fp32 operands, fp32 result (AVX-512 or OpenBLAS).
#pragma once

#include <string>

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

// True when matmul accepts these types: a and b each F32, F16 or BF16 (they may differ), c F32.
bool matmul_supported(ElemType a, ElemType b, ElemType c);

// c[M,N] = a[M,K] @ b[K,N] in fp32 arithmetic (fp16/bf16 inputs are widened exactly, then one
// cblas_sgemm, or the AVX-512 kernel: see MatmulPath). Views may be strided. c must not overlap a or b.
// Thread-safe and allocation-free in the steady state (per-thread scratch). On first use OpenBLAS is pinned
// to one thread (the runtime's cores are the parallelism), and if it fell back to its generic "Prescott"
// kernels on a CPU it does not recognise, its AVX2/AVX-512 kernels are selected instead (set
// OPENBLAS_CORETYPE to choose).
void matmul(const TileView& a, const TileView& b, const TileView& c);

// c[M,N] += a[M,K] @ b[K,N], otherwise as matmul.
void matmul_acc(const TileView& a, const TileView& b, const TileView& c);

// What does the arithmetic, e.g. "OpenBLAS core Haswell, 1 thread(s)"; for benchmark and run logs.
std::string matmul_backend();

// Which code does the arithmetic. Auto (the default) takes the AVX-512 micro-kernel where the CPU has
// AVX-512 F/BW/VL (faster than OpenBLAS's AVX2 kernels at tile sizes, docs/benchmarks.md), else
// OpenBLAS. The environment variable PTODIST_MATMUL=openblas or =avx512 sets the starting choice.
enum class MatmulPath { Auto, OpenBlas, Avx512 };

// Chooses the path of every later matmul in this process (tests and benchmarks compare the two).
// Returns false and changes nothing when the CPU cannot run it.
bool set_matmul_path(MatmulPath path);

// Pins OpenBLAS to one thread and replaces its generic fallback kernels, as the OpenBLAS path does
// before its first sgemm; for code that calls cblas itself beside the tile kernels (benchmark
// baselines). Idempotent and thread-safe.
void prepare_openblas();

}  // namespace ptodist::kernels
