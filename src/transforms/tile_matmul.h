// Kernel-local tensors and tensor-level matmuls as tiles: the part of convert-tensor-to-tile that
// PyPTO's ConvertTensorToTileOps does with tensor.create and its MatmulSlice pattern.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms::detail {

// Rewrites kernel `f`: a variable defined only by pl.create_tensor and tensor-level pl.matmul /
// pl.matmul_acc becomes an Acc tile, each matmul loading its operands into Mat (transposed through a
// pl.transpose view for a_trans / b_trans) and moving them to Left / Right; whatever reads the
// accumulator is retyped as if the program had written tiles. A variable whose conversion would not
// type-check keeps its tensor form. Never reports errors.
ir::Function convert_tile_matmuls(const ir::Program& p, const ir::Function& f, PassContext& cx);

}  // namespace ptodist::transforms::detail
