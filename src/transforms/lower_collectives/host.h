// Collectives called from a host orchestrator, turned into generated per-device kernels (host.cpp).
#pragma once

#include "emitter.h"

namespace ptodist::transforms::collectives {

bool is_collective(ir::OpId id);

// Rewrites every collective statement of the host orchestrator into a loop of device calls to a
// generated orchestration function and kernel that make the same call. Null after a reported error.
ir::Program lower_host_collectives(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms::collectives
