// Internal state of the check scheduler (scheduler.h), shared by its files: actors, the baton, the
// seeded choice, in-flight transfers and the deadlock report.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "scheduler.h"

namespace ptodist::runtime::check {

// Where an actor is in its life under the scheduler (named apart from happens_before_impl.h's
// ActorState, its vector-clock state: one name for two types in this namespace breaks the ODR).
enum class RunState { Unstarted, Runnable, Running, Blocked, Finished };

struct Actor {
  ActorId id = 0;
  ActorId parent = kDriver;
  int rank = 0;
  std::string name;  // "rank 1, vector core 0 (block 0/4 of comm_local_shard)"
  bool needs_core = false;
  bool cube = false;
  int core_id = -1;                  // the core it holds (blocks), -1 before it starts
  std::function<bool()> start_when;  // deps of a block: it starts only once they hold
  RunState state = RunState::Unstarted;
  const std::function<bool()>* ready = nullptr;  // while Blocked: the waiter's condition
  BlockInfo info;                                // while Blocked: what it waits on
  const ir::FunctionNode* fn = nullptr;          // what it runs (wait-for cycle), when known
  SourceSpan origin;                             // the submit that made a block
  std::condition_variable cv;
};

enum class Landing { Eager, AtWait, Pieces };

// A put_async/get_async the scheduler lands itself.
struct Flight {
  DmaTransfer t;
  ActorId issuer = 0;
  Landing landing = Landing::Eager;
  std::vector<long long> pieces;  // offsets of pieces not yet landed
  long long piece_bytes = 1;
};

// What the baton holder picked: an actor to run, one step of a transfer, or nothing.
struct Choice {
  enum Kind { None, Run, Land } kind = None;
  ActorId actor = 0;
  Flight* flight = nullptr;
};

class SchedulerImpl {
 public:
  SchedulerImpl(World& world, uint64_t seed) : world(world), seed(seed), rng(seed) {}

  World& world;
  uint64_t seed;
  std::mt19937_64 rng;  // its output sequence is fixed by the standard, so a seed means the same run
  std::mutex mu;
  std::condition_variable driver_cv;
  std::deque<std::unique_ptr<Actor>> actors;
  std::vector<std::unique_ptr<Flight>> flights;           // in issue order; landed ones are removed
  std::vector<std::vector<bool>> vector_held, cube_held;  // per rank, per core
  ActorId holder = kDriver;                               // who holds the baton
  bool round_done = false;
  std::atomic<bool> aborted{false};
  uint64_t digest = kDigestStart;  // FNV-1a over the round's choices
  static constexpr uint64_t kDigestStart = 1469598103934665603ull;

  // A uniform index in [0, n) from the seeded stream (Lemire's multiply-shift; no library
  // distribution, whose output differs between standard libraries).
  size_t pick_index(size_t n);
  Actor& actor(ActorId a) { return *actors[static_cast<size_t>(a)]; }

  // The baton holder `self` (or the driver) has set its own state; runs the scheduler until some
  // actor holds the baton. Returns with the lock held. `self` keeps the baton when it is picked.
  void hand_on(ActorId self, std::unique_lock<std::mutex>& lk);
  // Waits until `a` holds the baton; throws RunAborted when the run is torn down.
  void wait_for_baton(ActorId a, std::unique_lock<std::mutex>& lk);
  Choice choose(std::unique_lock<std::mutex>& lk);
  bool startable(Actor& a);
  std::vector<bool>& held_cores(const Actor& a);  // the busy flags of a's rank and core kind
  int free_core(const Actor& a);                  // the lowest free core of a's kind, or -1
  bool takes_core(Actor& a);  // reserves the lowest free core of its kind; false when none is free
  void release_core(Actor& a);
  bool all_finished() const;
  void abort_all();

  // Transfers (sched_dma.cpp).
  void add_flight(ActorId issuer, DmaTransfer t);
  bool is_head(const Flight& f) const;
  bool land_step(Flight* f);  // lands one step; true when the transfer completed
  void land_piece(Flight& f, size_t index);
  void complete(Flight& f);
  void drop_flight(Flight* f);

  // The report when nothing can run (deadlock_report.cpp).
  std::string deadlock_report();
};

// True when `fn` has a pld.system.notify (or another op that notifies) after the statement at `at`,
// or anywhere in a loop around it (deadlock_report.cpp).
bool notifies_after(const ir::FunctionNode& fn, const SourceSpan& at);

}  // namespace ptodist::runtime::check
