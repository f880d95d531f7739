// Internal to the timing model: the recorded run as per-actor step lists, and the replay's state.
#pragma once

#include <array>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "op_cost.h"
#include "ptodist/timing/model.h"

namespace ptodist::timing {

using runtime::events::Event;

// Bytes an op touches on this host: a tile's buffer or a tensor view's span.
struct Footprint {
  uintptr_t addr = 0;
  long long extent = 0;
  bool overlaps(const Footprint& o) const { return addr < o.addr + o.extent && o.addr < addr + extent; }
};

// What a step did when replayed, for metrics, the trace and the critical path (kept in the step
// itself: a separate record per step would page in as much memory again).
struct Rec {
  double start = 0, end = 0;
  int bound_actor = -1, bound_rec = -1;  // the step whose end this one waited for, if any
};

// What a synchronisation step (not an op) carries. They are few beside the ops, so each actor keeps
// them in a list of their own and a step names its entry: a step stays small (the published
// all-gather + GEMM size records millions of them).
struct SyncInfo {
  uint32_t effects = 0;
  int peer = -1;
  int cores = 0;  // Submit: the task's blocks
  long long bytes = 0;
  uint64_t id = 0;
  std::vector<uint64_t> deps;  // Wait: the notifies or transfers; Submit, Join: tasks
  // Replayed: an Issue's transfer on its SDMA engine, [xfer_start, xfer_end) (it lands at the step's
  // end); a synchronous remote access's time on the link.
  int engine = -1;
  double xfer_start = 0, xfer_end = 0;
};

// What the replay needs of an event, copied out of it as it streams in (the events are not kept):
// for an op, its OpEnd; otherwise the event itself.
struct Step {
  enum class Type : uint8_t { Op, Notify, Issue, Wait, Submit, Join };
  Type type = Type::Op;
  // Op: whether it runs on its pipe alongside the core's other pipes (a tile or GM op without
  // synchronisation), ordered by the bytes it reads and writes; otherwise the core's pipes drain first.
  bool on_pipe = false;
  uint8_t n_reads = 0;
  ir::OpId op{};
  uint32_t sync = 0;  // not an Op, or an Op over a link: its entry in the actor's SimActor::sync
  // Op on a pipe: the bytes it reads and writes, as entries of the actor's SimActor::footprints
  // (0: none). Ops touch the same tiles and tensor regions again and again, so they share entries.
  uint32_t reads[3] = {}, write = 0;
  const SourceSpan* span = nullptr;
  const OpCost* cost = nullptr;  // Op: shared by every op of equal cost (ActorBuilder's table)
  Rec rec;                       // filled by the replay
};
// Millions of steps at the published sizes: each byte here is megabytes of page faults.
static_assert(sizeof(Step) <= 72, "keep a replay step small");

// An actor's steps in chunks of fixed size: the published all-gather + GEMM size builds millions of
// steps, which one vector would move at every doubling (holding both copies meanwhile); here a step
// never moves once added, so records can point at it.
class StepList {
 public:
  void push_back(Step s) {
    if (size_ % kChunk == 0) {
      chunks_.emplace_back();
      chunks_.back().reserve(kChunk);
    }
    chunks_.back().push_back(std::move(s));
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Step& operator[](size_t i) const { return chunks_[i / kChunk][i % kChunk]; }
  Step& operator[](size_t i) { return chunks_[i / kChunk][i % kChunk]; }

  class Iterator {
   public:
    Iterator(const StepList* list, size_t i) : list_(list), i_(i) {}
    const Step& operator*() const { return (*list_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

   private:
    const StepList* list_;
    size_t i_;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size_}; }

 private:
  static constexpr size_t kChunk = 1024;
  std::vector<std::vector<Step>> chunks_;
  size_t size_ = 0;
};

struct SimActor {
  bool started_in_run = false;  // its ActorStart or BlockStart was reported
  int block_index = 0;          // a block's index in its kernel
  runtime::events::Actor who;
  bool block = false;
  uint64_t task = 0;
  StepList steps;
  std::vector<SyncInfo> sync;                      // what its synchronisation steps carry (Step::sync)
  std::vector<Footprint> footprints{Footprint{}};  // what its ops touch (Step::reads, write); 0: none
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
  int recorded = 0;  // steps replayed so far (their Rec filled), in order
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
    // The footprints added last, by a hash of their bytes: an op's footprint found here is shared
    // (a miss only adds an entry again, which is harmless).
    std::array<uint32_t, 1024> recent{};
  };
  const TimingParams& p_;
  // Every distinct op cost once, nodes at fixed addresses: the steps point at them, so the builder
  // outlives the actors it built (the Recorder holds both).
  std::unordered_set<OpCost, OpCostHash> costs_;
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<Building> building_;
  static void add_step(Building& b, Step s);
  static Step sync_step(Building& b, Step::Type type, const Event& e);
  static uint32_t footprint(Building& b, uintptr_t addr, long long extent);
  static void describe_data(Building& b, const Event& e, Step& op);
  void end_op(Building& b, const Event& e);
};

// Runs the replay; fills `out.error` when it cannot finish.
void replay(std::vector<SimActor>& actors, int ranks, const TimingParams& p, Prediction& out);

// Per-rank figures, the critical path and the timeline from the replayed actors.
// `with_timeline`: also the spans of every step (for --trace; millions at the published sizes).
void summarize(const std::vector<SimActor>& actors, int ranks, bool with_timeline, Prediction& out);

}  // namespace ptodist::timing
