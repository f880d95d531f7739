// Internal: element access, conversions, strided copies and atomic adds on raw bytes, used by the
// executor's ops. The heavy tile compute (matmul, elementwise) goes through the kernels library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ptodist/ir/dtype.h"
#include "ptodist/kernels/tile.h"

namespace ptodist::runtime {

kernels::ElemType elem_type(ir::DType t);

double load_element(const std::byte* p, ir::DType t);
void store_element(std::byte* p, ir::DType t, double v);

// Converts `n` dense elements (same dtype: memcpy).
void convert_elements(const std::byte* src, ir::DType st, std::byte* dst, ir::DType dt, long long n);

// Copies an N-D region between two strided layouts of the same shape (strides in elements),
// converting the element type when the two differ.
void copy_region(const std::byte* src, ir::DType st, std::span<const long long> src_strides, std::byte* dst,
                 ir::DType dt, std::span<const long long> dst_strides, std::span<const long long> shape);

// dst[i] += src[i] for `n` elements, each add atomic (concurrent adders never lose an update).
void atomic_add_elements(std::byte* dst, const std::byte* src, long long n, ir::DType t);

}  // namespace ptodist::runtime
