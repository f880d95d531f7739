// Kernel-local scratch tensors (pl.create_tensor) and the sort / gather values computed in a kernel as
// Vec tiles: the part of convert-tensor-to-tile that PyPTO's ConvertTensorToTileOps does with
// tensor.create, tensor.sort32 / mrgsort / gather and tensor.ci.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms::detail {

// Rewrites kernel `f`: each variable defined only by pl.create_tensor (without init_value), by a
// tensor-level sort, gather or ramp, or by an assemble into itself becomes a Vec tile where the kernel
// then type-checks (its readers rebuilt on tiles: pl.read / pl.write as pl.tile.read / pl.tile.write, a
// pl.load of it as the tile or a slice of it, the index-form gather as a loop of row gathers). A
// variable whose conversion would not type-check keeps its tensor form. Never reports errors.
ir::Function convert_tile_scratch(const ir::Program& p, const ir::Function& f, PassContext& cx);

// Kernel `f` with a new variable for each tile merge sort's result that redefines one of its sources
// (`srt = pl.mrgsort(srt[:, 0:256], srt[:, 256:512])`) where the value stays in one block: the device's
// merge cannot write the buffer it reads, and plan-memory gives a variable one buffer.
ir::Function split_merge_results(const ir::Program& p, const ir::Function& f);

}  // namespace ptodist::transforms::detail
