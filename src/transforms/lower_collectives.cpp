// Stub (milestone 1): returns the program unchanged until the real pass lands.
#include "ptodist/transforms/lower_collectives.h"

namespace ptodist::transforms {

ir::Program lower_collectives(const ir::Program& p, PassContext&) { return p; }

}  // namespace ptodist::transforms
