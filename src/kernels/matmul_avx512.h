// Internal: the AVX-512 tile matmul (matmul_avx512.cpp), used by matmul.cpp where the CPU has it.
#pragma once

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels::detail {

// True when the CPU and OS run AVX-512 F/BW/VL code (checked once).
bool avx512_matmul_available();

// c = a @ b (accumulate false) or c += a @ b (true). Operands are any float type, c is F32; shapes are
// checked by the caller and m, n, k are all > 0. Only call when avx512_matmul_available().
void matmul_avx512(const TileView& a, const TileView& b, const TileView& c, bool accumulate);

// "AVX-512 fp32 FMA kernel, 6x64 micro-tile", for benchmark and run logs.
const char* avx512_matmul_info();

}  // namespace ptodist::kernels::detail
