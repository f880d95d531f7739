// Row reductions of a tile: [M, N] -> [M, 1].
#pragma once

#include "ptodist/kernels/tile.h"

namespace ptodist::kernels {

// dst[i, 0] = sum_j src[i, j]. Float sources accumulate in fp32; integer and Bool sources accumulate in
// int64 (wrapping). The sum is stored into dst's type with the cast rule, so dst may be any type
// (usually src's or F32). An empty row sums to 0.
void row_sum(const TileView& dst, const TileView& src);

// dst[i, 0] = max_j src[i, j], NaN-propagating for floats. An empty row gives -inf (floats) or the
// type's minimum (integers).
void row_max(const TileView& dst, const TileView& src);

}  // namespace ptodist::kernels
