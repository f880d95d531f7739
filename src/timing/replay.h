// Internal to the timing model: the recorded run as per-actor step lists, and the replay's state.
#pragma once

#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "op_cost.h"
#include "ptodist/timing/model.h"

namespace ptodist::timing {

using runtime::events::Event;

// What the replay needs of an event, copied out of it as it streams in (the events are not kept):
// for an op, its OpEnd; otherwise the event itself.
// Bytes an op touches on this host: a tile's buffer or a tensor view's span.
struct Footprint {
  uintptr_t addr = 0;
  long long extent = 0;
  bool overlaps(const Footprint& o) const { return addr < o.addr + o.extent && o.addr < addr + extent; }
};

struct Step {
  enum class Type : uint8_t { Op, Notify, Issue, Wait, Submit, Join };
  Type type = Type::Op;
  // Op: whether it runs on its pipe alongside the core's other pipes (a tile or GM op without
  // synchronisation), ordered by the bytes it reads and writes; otherwise the core's pipes drain first.
  bool on_pipe = false;
  uint8_t n_reads = 0;
  ir::OpId op{};
  uint32_t effects = 0;
  int peer = -1;
  int cores = 0;  // Submit: the task's blocks
  long long bytes = 0;
  uint64_t id = 0;
  const SourceSpan* span = nullptr;
  std::vector<uint64_t> deps;  // Wait: the notifies or transfers; Submit, Join: tasks
  OpCost cost;                 // Op
  Footprint reads[3], write;   // Op on a pipe

  static Step of(Type type, const Event& e) {
    Step s;
    s.type = type;
    s.op = e.op;
    s.effects = e.effects;
    s.peer = e.peer;
    s.cores = e.cores;
    s.bytes = e.bytes;
    s.id = e.id;
    s.span = e.span;
    s.deps = e.deps;
    return s;
  }
};

// What an executed step did, for metrics, the trace and the critical path.
struct Rec {
  const Step* step = nullptr;
  double start = 0, end = 0;
  int bound_actor = -1, bound_rec = -1;  // the step whose end this one waited for, if any
  // Issue: the transfer on its SDMA engine, [xfer_start, xfer_end) (it lands at `end`); a synchronous
  // remote access: its time on the link.
  int engine = -1;
  double xfer_start = 0, xfer_end = 0;
};

struct SimActor {
  bool started_in_run = false;  // its ActorStart or BlockStart was reported
  int block_index = 0;          // a block's index in its kernel
  runtime::events::Actor who;
  bool block = false;
  uint64_t task = 0;
  std::vector<Step> steps;
  // A deferred waiter's block (pld.system.defer_wait): the notifies that made its conditions hold; its
  // task completes once they have arrived, though its core is free at its end.
  std::vector<uint64_t> completes_after;
  size_t pc = 0;
  // t: where the core issues its next op (the end of the last step that drained the pipes); key: its
  // place in the replay's queue (the latest start so far); pipe_free: when each pipe is free.
  double t = 0, key = 0, start = 0, end = 0;
  double pipe_free[kPipes] = {};
  // What the ops on pipes since `t` read and wrote, and until when: a later op waits for the writes of
  // what it reads, and for the reads and writes of what it writes.
  struct Touch {
    Footprint at;
    double read_end = 0, write_end = 0;
  };
  std::vector<Touch> touched;
  bool queued = false, started = false, done = false;
  int start_bound_actor = -1, start_bound_rec = -1;
  std::vector<Rec> recs;
};

// Turns the events of a run, as they stream in, into actors with their steps, in each actor's
// reported order; an op is costed when its OpEnd arrives. Not thread-safe (the Recorder locks).
class ActorBuilder {
 public:
  explicit ActorBuilder(const TimingParams& p) : p_(p) {}
  void add(const Event& e);
  // The actors built so far (those whose start was reported); the builder is empty afterwards.
  std::vector<SimActor> take();

 private:
  struct Building {
    SimActor actor;
    std::vector<std::vector<Step>> pending;  // per open op: its inner steps
    std::vector<std::vector<Step>> waits;    // per open op: the waits it satisfied
  };
  const TimingParams& p_;
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<Building> building_;
  static void add_step(Building& b, Step s);
  void end_op(Building& b, const Event& e);
};

// Runs the replay; fills `out.error` when it cannot finish.
void replay(std::vector<SimActor>& actors, int ranks, const TimingParams& p, Prediction& out);

// Per-rank figures, the critical path and the timeline from the replayed actors.
// `with_timeline`: also the spans of every step (for --trace; millions at the published sizes).
void summarize(const std::vector<SimActor>& actors, int ranks, bool with_timeline, Prediction& out);

}  // namespace ptodist::timing
