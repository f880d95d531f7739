// Stub (milestone 1): returns the program unchanged until the real pass lands.
#include "ptodist/transforms/bind_async_scratch.h"

namespace ptodist::transforms {

ir::Program bind_async_scratch(const ir::Program& p, PassContext&) { return p; }

}  // namespace ptodist::transforms
