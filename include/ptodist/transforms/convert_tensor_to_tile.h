// convert-tensor-to-tile: gives tensor-level transfers and values their tile-level form.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// put/get become staging Vec tile(s) plus pld.tile.put/get; put_async/get_async become their tile
// forms (no staging); async_session becomes a [1, 256] INT8 Vec scratch tile plus pld.tile.async_session;
// tensor-level values that have a tile form become tiles first (tile_values.h).
ir::Program convert_tensor_to_tile(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
