// Kernel task launch, shared by the orchestration runtime (orchestration.cpp, which defines it) and the
// task submission ops (task_submission.cpp).
#pragma once

#include "exec.h"

namespace ptodist::runtime {

// Launches a task of `cores` blocks of kernel `fn` after `deps` (orchestration.cpp); `joined_now`: the
// submitter waits for it at once.
std::shared_ptr<TaskState> launch(Interp& in, const ir::FunctionNode& fn, std::vector<Value> args,
                                  long long cores, std::vector<std::shared_ptr<TaskState>> deps,
                                  const SourceSpan& span, bool joined_now,
                                  std::shared_ptr<CrossCorePipes> pipes = nullptr);
// Runs a Group's body, which launches its AIC and AIV kernels on `cores` blocks each after `deps`, with
// one set of pipes per block; appends their tasks to `tasks` without waiting for them. Returns the
// Group's value. When the body fails, waits for the kernels it launched (reported as `what` at `span`)
// and rethrows.
Value launch_group(Interp& in, const ir::FunctionNode& fn, std::vector<Value> args, long long cores,
                   std::vector<std::shared_ptr<TaskState>> deps,
                   std::vector<std::shared_ptr<TaskState>>& tasks, const SourceSpan& span, const char* what);
// The value a kernel's result stands for before it runs: the argument bound to the parameter it
// returns, or None.
Value static_result(const ir::FunctionNode& fn, const std::vector<Value>& args);

}  // namespace ptodist::runtime
