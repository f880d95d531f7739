// The executor's reports of ops and task boundaries: to check mode's observer (check/op_hooks.cpp,
// check/access_hooks.cpp) and to the op-event stream (events/op_events.cpp). Only the executor's
// boundary code (orchestration.cpp, runtime.cpp) and those observers call them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "exec.h"

namespace ptodist::runtime {

// Check mode's observer of ops (check/op_hooks.cpp), called by observed_op around each op in check
// mode: switch points and happens-before facts derived from the op's effects.
void check_before_op(Interp& in, const ir::OpCall& c, uint32_t effects);
void check_after_op(Interp& in, const ir::OpCall& c, uint32_t effects, const Value& result);
// ... and of its tile result written at its planned address (check/access_hooks.cpp).
void check_tile_result(Interp& in, const ir::OpCall& c, const Value& result);
// ... and of task boundaries (check/access_hooks.cpp): a block's start acquires its deps' blocks, a
// join the joined tasks' blocks, a launch is a switch point, a spawned actor starts from its parent.
void check_block_started(Interp& in, const TaskState& task);
void check_joined(Interp& in, const std::vector<std::shared_ptr<TaskState>>& tasks);
void check_actor_spawned(World& world, int actor, int parent, int rank, const std::string& name);
void check_deferred_satisfied(World& world, const CoreState& core, const DeferredCondition& d);
void check_round_start(World& world, int round, bool zeroed);

// Task and round boundaries on the op-event stream (events/op_events.cpp), consumed by check mode and
// by the stream's observers. `report_boundary`: an orchestration or a block starts or ends.
void report_boundary(Interp& in, events::Kind kind, const TaskState* task = nullptr);
void report_submit(Interp& in, TaskState& task);
// The submitter spawned the task's blocks: they may run before it goes on.
void report_launched(Interp& in);
void report_join(Interp& in, const std::vector<std::shared_ptr<TaskState>>& tasks, const SourceSpan& span);
// Check mode's actors (a rank's orchestrator, a kernel block) as the scheduler spawns them.
void report_actor_spawned(World& world, int actor, int parent, int rank, const std::string& name);
// A block's pld.system.defer_wait condition held (an acquire, as a wait's).
void report_deferred_satisfied(World& world, const CoreState& core, const DeferredCondition& d);
// A round starts: every earlier access is ordered before it (`zeroed`: from zeroed windows).
void report_round_start(World& world, int round, bool zeroed);
// A deferred waiter's block ended and its conditions held: the notifies that met them gate its
// task's completion on the event stream (events/op_events.cpp).
void report_deferred(World& world, const CoreState& core, int rank, const TaskState& task,
                     const std::vector<DeferredCondition>& conds);

}  // namespace ptodist::runtime
