// Strided 2-D copies between tiles and GM regions (load, store and put/get staging).
#pragma once

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

// Copies src into dst: same type and shape, each with its own row stride (e.g. a contiguous tile and
// a region of a GM tensor whose rows are wider). Rows of dst and src may overlap (memmove per row),
// which matters only for a copy within one buffer.
void copy(const TileView& dst, const TileView& src);

// The byte-level form: rows of row_bytes each, strides in bytes.
void copy_2d(void* dst, long dst_stride_bytes, const void* src, long src_stride_bytes, int rows,
             long row_bytes);

}  // namespace ptodist::kernels
