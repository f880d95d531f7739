// Stub (milestone 1): returns the program unchanged until the real pass lands.
#include "ptodist/transforms/plan_memory.h"

namespace ptodist::transforms {

ir::Program plan_memory(const ir::Program& p, PassContext&) { return p; }

}  // namespace ptodist::transforms
