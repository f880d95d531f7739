// insert-comm-fence: the cache-invalidate and fence markers that publish and consume window data.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Inserts pl.system.cacheinvalid / pl.system.fence after publishing writes, async waits and signal
// waits (docs/passes.md gives the memory model); idempotent.
ir::Program insert_comm_fence(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
