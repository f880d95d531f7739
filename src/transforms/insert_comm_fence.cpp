// Stub (milestone 1): returns the program unchanged until the real pass lands.
#include "ptodist/transforms/insert_comm_fence.h"

namespace ptodist::transforms {

ir::Program insert_comm_fence(const ir::Program& p, PassContext&) { return p; }

}  // namespace ptodist::transforms
