// Internal: one-time OpenBLAS setup before the first sgemm (see blas_setup.cpp).
#pragma once

#include <string>

namespace ptodist::kernels::detail {

// Idempotent and thread-safe; call before every cblas_sgemm.
void prepare_blas();

// "OpenBLAS core SkylakeX, 1 thread(s)", for benchmarks and logs.
std::string blas_info();

}  // namespace ptodist::kernels::detail
