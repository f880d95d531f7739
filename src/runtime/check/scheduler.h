// Check mode's deterministic, seeded scheduler (DESIGN.md §6, docs/checking.md): every logical core
// (an "actor": a rank's chip orchestrator or one block of a kernel) runs on its own OS thread as in
// fast mode, but only the actor holding the baton runs. At every switch point (communication op, wait,
// task boundary) the scheduler picks, with a seeded RNG, what runs next: a runnable actor or one piece
// of an in-flight DMA transfer, which the scheduler lands itself. The same seed gives the same
// interleaving, hence the same outputs and the same report. When nothing is runnable and nothing is in
// flight, the run is a deadlock and the report names who waits on what and the wait-for cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "ptodist/ir/function.h"
#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/world.h"

namespace ptodist::runtime::check {

// A logical thread of the check scheduler; ids are dense, handed out in a deterministic order.
using ActorId = int;
inline constexpr ActorId kDriver = -1;  // the round driver (host side), which starts the ranks

class SchedulerImpl;

class Scheduler {
 public:
  Scheduler(World& world, uint64_t seed);
  ~Scheduler();
  uint64_t seed() const;

  // Round boundaries, on the driver thread: before any actor of the round exists; after the last
  // one finished (or the run was aborted and every actor thread has left).
  void begin_round();
  void end_round();

  // Creates an actor; called by the driver (rank orchestrators, in rank order) or by the running actor
  // (kernel blocks, in block order), so ids depend only on the schedule. `cube`/`needs_core`: a kernel
  // block holds a core of that kind from its first step to its end; when the rank has none free, the
  // block stays unscheduled until one frees (a core-budget deadlock if that never happens).
  ActorId spawn(ActorId parent, int rank, std::string name, bool needs_core, bool cube);
  // The OS thread that runs `a` calls this first; it returns once the scheduler gives `a` the baton.
  void attach(ActorId a, CoreState* core);
  // `a` is done; hands the baton on. Every actor thread ends with this, also when unwinding.
  void finish(ActorId a);
  // A switch point: other actors may run, or DMA pieces land, before `a` goes on.
  void yield(ActorId a);
  // Blocks `a` until `ready()` holds; `ready` is evaluated only by the baton holder. Throws RunAborted
  // when the run is torn down (deadlock, hazard, error).
  void block_until(ActorId a, const BlockInfo& info, const std::function<bool()>& ready);
  // Queues a put_async/get_async transfer on its rank's channel group; the scheduler lands it where
  // the seed says (eagerly, at the wait, or in pieces of block_bytes in any order) and then writes the
  // completion word. Transfers of one session complete in issue order.
  void submit_transfer(ActorId issuer, DmaTransfer t);

  // Driver: hands out the baton and returns when every actor of the round has finished.
  void run_round();

  // Additions to the first interface (CM1):
  // A block whose deps are pending: it starts (and takes its core) only once `start_when()` holds,
  // so a dependent block never holds a core its dependency needs. Evaluated by the baton holder.
  ActorId spawn(ActorId parent, int rank, std::string name, bool needs_core, bool cube,
                std::function<bool()> start_when);
  // The core index (among the rank's cores of its kind) a block holds: from spawn when a core was
  // free and the block had no pending deps, else from its start; -1 before that.
  int core_of(ActorId a);
  // The block `a` (the baton holder) gives its core back before it finishes: its body ended and it
  // only waits for its deferred completion conditions (pld.system.defer_wait).
  void release_core(ActorId a);
  // Renames an actor (once its core is known); reports use the name.
  void set_name(ActorId a, std::string name);
  // The actor's current name: a block spawned before a core was free is named "vector core ?" at
  // spawn (actor_started) and gets its core's name when it starts; reports may ask here.
  std::string name_of(ActorId a);
  // For reports: the function the actor runs (the wait-for cycle reads its statement order) and,
  // for a block, the pl.spmd_submit or kernel call that made it.
  void set_origin(ActorId a, const ir::FunctionNode* fn, const SourceSpan& submit);
  // The run is torn down (World::fail, abort_for_hang, report_hazard): every actor thread leaves
  // with RunAborted; run_round returns once all have finished.
  void abort();
  // A digest of this round's choices (which actor ran, which transfer step landed, in order): equal
  // digests mean the same interleaving. For tests and `--runs` diagnostics.
  uint64_t digest();

 private:
  std::unique_ptr<SchedulerImpl> impl_;
};

}  // namespace ptodist::runtime::check
