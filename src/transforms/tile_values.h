// The value half of convert-tensor-to-tile: tensor-level data in a kernel becomes on-chip tiles, as
// PyPTO's ConvertTensorToTileOps lowers it.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms::detail {

// Rewrites kernel `f`: a tensor-level elementwise op whose result only flows into stores (pl.assemble's
// source, pld.tensor.remote_store's src, another such op) computes on tiles loaded from its operands;
// pl.assemble of a GM tensor (a GM-to-GM copy) loads the source into a Vec tile and stores that;
// pld.tensor.remote_store becomes pld.tile.remote_store of the loaded or computed tile; a unified op
// mixing a tile and a tensor loads the tensor side (a slice with valid_shape partially valid). Null
// after reported errors.
ir::Function convert_tile_values(const ir::Program& p, const ir::Function& f, PassContext& cx);

}  // namespace ptodist::transforms::detail
