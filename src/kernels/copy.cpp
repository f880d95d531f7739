// Strided 2-D copies: one memmove per row, or a single one when both sides are dense.
#include "ptodist/kernels/copy.h"

#include <cstring>

#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {

void copy_2d(void* dst, long dst_stride_bytes, const void* src, long src_stride_bytes, int rows,
             long row_bytes) {
  if (rows <= 0 || row_bytes <= 0) return;
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  if (dst_stride_bytes == row_bytes && src_stride_bytes == row_bytes) {
    std::memmove(d, s, static_cast<size_t>(row_bytes) * rows);
    return;
  }
  for (int r = 0; r < rows; ++r) {
    std::memmove(d + r * dst_stride_bytes, s + r * src_stride_bytes, static_cast<size_t>(row_bytes));
  }
}

void copy(const TileView& dst, const TileView& src) {
  PTODIST_INTERNAL_ASSERT(dst.type == src.type && dst.rows == src.rows && dst.cols == src.cols,
                          "copy: dst and src differ in type or shape");
  const long eb = elem_bytes(src.type);
  copy_2d(dst.data, dst.row_stride * eb, src.data, src.row_stride * eb, src.rows, src.row_bytes());
}

}  // namespace ptodist::kernels
