// Tile matrix multiply for the CPU runtime: fp16/bf16/fp32 operands, fp32 result, through OpenBLAS.
#pragma once

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

// True when matmul accepts these types: a and b each F32, F16 or BF16 (they may differ), c F32.
bool matmul_supported(ElemType a, ElemType b, ElemType c);

// c[M,N] = a[M,K] @ b[K,N] in fp32 arithmetic (fp16/bf16 inputs are widened exactly, then one
// cblas_sgemm). Views may be strided. c must not overlap a or b. Thread-safe and allocation-free in
// the steady state (per-thread scratch), and OpenBLAS is pinned to one thread on first use: the
// runtime's cores are the parallelism.
void matmul(const TileView& a, const TileView& b, const TileView& c);

// c[M,N] += a[M,K] @ b[K,N], otherwise as matmul.
void matmul_acc(const TileView& a, const TileView& b, const TileView& c);

}  // namespace ptodist::kernels
