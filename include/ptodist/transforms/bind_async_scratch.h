// bind-async-scratch: threads each session's scratch tile into every wait/test on that session.
#pragma once

#include "ptodist/transforms/pass.h"

namespace ptodist::transforms {

// Rewrites pld.system.wait_async_event / test_async_event into their pld.tile forms carrying the
// session's scratch, so the scratch stays live to the last wait; a session that reaches a wait through
// a loop-carried value or an if/else join is a located error.
ir::Program bind_async_scratch(const ir::Program& p, PassContext& cx);

}  // namespace ptodist::transforms
