// Internal to the timing model: the recorded run as per-actor step lists, and the replay's state.
#pragma once

#include <array>
#include <bit>
#include <map>
#include <new>
#include <set>
#include <type_traits>
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
// itself: a separate record per step would page in as much memory again). What bound a wait or a join
// is kept in its SyncInfo (an op is never bound by another actor's step).
struct Rec {
  double start = 0, end = 0;
};

// Where a step comes from and what an op costs, shared by every step of equal site and cost (a loop's
// ops repeat a handful of them): a step points at one instead of carrying them, which keeps it small.
struct OpSite {
  OpCost cost;  // an op's; empty for a synchronisation step
  const SourceSpan* span = nullptr;
  ir::OpId op{};
  bool operator==(const OpSite& o) const { return cost == o.cost && span == o.span && op == o.op; }
};
struct OpSiteHash {
  size_t operator()(const OpSite& s) const {
    return OpCostHash{}(s.cost) ^ (std::hash<const void*>{}(s.span) * 31 + static_cast<size_t>(s.op));
  }
};

enum class StepType : uint8_t { Op, Notify, Issue, Wait, Submit, Join };

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
  StepType type{};                       // the step's (set for every synchronisation step)
  int bound_actor = -1, bound_rec = -1;  // replayed: the step whose end a wait or join waited for
};

// What the replay needs of an event, copied out of it as it streams in (the events are not kept):
// for an op, its OpEnd; otherwise the event itself.
struct Step {
  using Type = StepType;
  Type type = Type::Op;
  // Op: whether it runs on its pipe alongside the core's other pipes (a tile or GM op without
  // synchronisation), ordered by the bytes it reads and writes; otherwise the core's pipes drain first.
  bool on_pipe = false;
  uint8_t n_reads = 0;
  uint32_t sync = 0;  // not an Op, or an Op over a link: its entry in the actor's SimActor::sync
  // Op on a pipe: the bytes it reads and writes, as entries of the actor's SimActor::footprints
  // (0: none). Ops touch the same tiles and tensor regions again and again, so they share entries.
  uint32_t reads[3] = {}, write = 0;
  const OpSite* site = nullptr;  // its source, op and (an Op) cost: ActorBuilder's table
  Rec rec;                       // filled by the replay
};
static_assert(sizeof(Step) <= 48, "keep a replay step small");

// An actor's steps in chunks that never move once allocated, so records can point at a step. The
// published all-gather + GEMM size builds millions of steps, most of them in a few actors, and every
// page of them is a page fault (some 12 us on a VM), so the chunks double in size (1024 steps, 2048,
// ...; an actor of a handful of steps stays small) and one of 2 MiB or more asks the kernel for
// transparent huge pages: one fault per 2 MiB instead of per 4 KiB.
class StepList {
 public:
  StepList() = default;
  StepList(StepList&& o) noexcept : chunks_(std::move(o.chunks_)), size_(o.size_) { o.size_ = 0; }
  StepList& operator=(StepList&& o) noexcept {
    std::swap(chunks_, o.chunks_);
    std::swap(size_, o.size_);
    return *this;
  }
  StepList(const StepList&) = delete;
  StepList& operator=(const StepList&) = delete;
  ~StepList();

  void push_back(const Step& s) {
    const Place at = place(size_);
    if (at.chunk == chunks_.size()) grow();
    new (chunks_[at.chunk] + at.offset) Step(s);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Step& operator[](size_t i) const {
    const Place at = place(i);
    return chunks_[at.chunk][at.offset];
  }
  Step& operator[](size_t i) {
    const Place at = place(i);
    return chunks_[at.chunk][at.offset];
  }

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
  static constexpr size_t kFirst = 1024;  // steps in chunk 0; chunk c holds kFirst << c
  struct Place {
    size_t chunk, offset;
  };
  // Chunk c starts at step kFirst * (2^c - 1): for j = i + kFirst, c is j's bit width less kFirst's.
  static Place place(size_t i) {
    const size_t j = i + kFirst;
    const size_t c = static_cast<size_t>(std::bit_width(j) - std::bit_width(kFirst));
    return {c, j - (kFirst << c)};
  }
  void grow();
  std::vector<Step*> chunks_;
  size_t size_ = 0;
};
static_assert(std::is_trivially_destructible_v<Step>, "StepList frees its chunks without destroying steps");

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
  // Every distinct op site once, nodes at fixed addresses: the steps point at them, so the builder
  // outlives the actors it built (the Recorder holds both).
  std::unordered_set<OpSite, OpSiteHash> sites_;
  const OpSite* site(const OpSite& s) { return &*sites_.insert(s).first; }
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<Building> building_;
  static void add_step(Building& b, Step s);
  Step sync_step(Building& b, Step::Type type, const Event& e);
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
