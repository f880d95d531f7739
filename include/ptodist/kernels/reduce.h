// Reductions of a tile along its rows ([M, N] -> [M, 1]) or its columns ([M, N] -> [1, N]).
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

// SumPairwise: Sum added as a binary tree over the lines (TCOLSUM's form with a tmp tile).
enum class AxisReduce { Sum, SumPairwise, Max, Min, Prod, ArgMax, ArgMin };

// dst = the reduction of each row of src (per_row: dst is [rows, 1]) or of each column (dst is
// [1, cols]). Float sources accumulate in fp32, integer ones in int64 (wrapping); the value is stored
// into dst's type with the cast rule. A float column sum instead rounds every add to src's type, as the
// device's TCOLSUM adds rows in the tile's own type. ArgMax/ArgMin store the index of the first extreme
// element (NaN counts as the extreme, as numpy's argmax) into an I32 dst.
void reduce_axis(const TileView& dst, const TileView& src, AxisReduce kind, bool per_row);

}  // namespace ptodist::kernels
