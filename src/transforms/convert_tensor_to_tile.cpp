// Stub (milestone 1): returns the program unchanged until the real pass lands.
#include "ptodist/transforms/convert_tensor_to_tile.h"

namespace ptodist::transforms {

ir::Program convert_tensor_to_tile(const ir::Program& p, PassContext&) { return p; }

}  // namespace ptodist::transforms
