// Broadcasting a per-row [M, 1] or per-column [1, N] vector to a tile's shape (the expand ops).
#include <cstring>

#include "ptodist/kernels/elementwise.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::kernels {

void broadcast(const TileView& dst, const TileView& vec, bool per_row) {
  PTODIST_INTERNAL_ASSERT(dst.type == vec.type, "broadcast: dst and vec differ in type");
  const int eb = elem_bytes(dst.type);
  for (int r = 0; r < dst.rows; ++r) {
    char* out = dst.row_ptr(r);
    if (per_row) {
      const char* v = vec.row_ptr(r);
      for (int c = 0; c < dst.cols; ++c) std::memcpy(out + static_cast<long>(c) * eb, v, eb);
    } else {
      std::memcpy(out, vec.row_ptr(0), static_cast<size_t>(dst.row_bytes()));
    }
  }
}

}  // namespace ptodist::kernels
