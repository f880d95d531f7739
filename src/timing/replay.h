// Internal to the timing model: the recorded run as per-actor step lists, and the replay's state.
#pragma once

#include <map>
#include <set>
#include <vector>

#include "op_cost.h"
#include "ptodist/timing/model.h"

namespace ptodist::timing {

using runtime::events::Event;

struct Step {
  enum class Type { Op, Notify, Issue, Wait, Submit, Join };
  Type type = Type::Op;
  const Event* ev = nullptr;  // Op: its OpEnd; otherwise the event itself
  OpCost cost;                // Op
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
  const Event* start_event = nullptr;  // ActorStart or BlockStart
  runtime::events::Actor who;
  bool block = false;
  uint64_t task = 0;
  std::vector<Step> steps;
  size_t pc = 0;
  double t = 0, start = 0, end = 0;
  bool queued = false, started = false, done = false;
  int start_bound_actor = -1, start_bound_rec = -1;
  std::vector<Rec> recs;
};

// Splits the recorded events into actors with their steps, in each actor's reported order.
std::vector<SimActor> build_actors(const std::vector<Event>& events, const TimingParams& p);

// Runs the replay; fills `out.error` when it cannot finish.
void replay(std::vector<SimActor>& actors, int ranks, const TimingParams& p, Prediction& out);

// Per-rank figures, the critical path and the timeline from the replayed actors.
void summarize(const std::vector<SimActor>& actors, int ranks, Prediction& out);

}  // namespace ptodist::timing
