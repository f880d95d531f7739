// expand-mixed-kernel: an InCore kernel that needs both the cube and the vector core becomes an AIC
// kernel, an AIV kernel and a Group that launches them together (PyPTO's ExpandMixedKernel).
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// For each InCore kernel with cube work (matmul, L1/L0 tiles) and vector work (UB tiles): the AIC kernel
// `<name>_aic` keeps the cube and shared statements, the AIV kernel `<name>_aiv` the vector and shared
// ones; each `pl.move` between the two memories becomes a tpush on the producer and a tpop (and a tfree
// after the tile's last use) on the consumer, over one cross-core pipe both kernels set up first. The
// kernel's name becomes a Group calling both with its whole signature, so its callers are unchanged.
// Kernels that need one core kind stay InCore. A construct the split cannot express is a located error.
ir::Program expand_mixed_kernel(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
