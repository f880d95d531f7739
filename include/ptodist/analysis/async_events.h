// Async-event dataflow: which DMA events may be outstanding at each point of a kernel, path by path.
//
// The lattice element maps each event variable to the set of states it may be in on the paths that reach
// a point (Unissued, Pending, Drained); join is set union per event, so a fact says "may be". The
// transfer function of an issue makes its event Pending, of a wait makes it Drained; the analysis runs
// over the structured control flow (if: join of both arms; for: iterated to a fixpoint, or applied trip
// count times when the trip count is a small constant, so a loop that may run zero times keeps the
// entry state). The checks of DESIGN.md section 4 ("Ordering") read the facts.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::analysis {

enum EventStateBit : uint8_t { kUnissued = 1, kPending = 2, kDrained = 4 };

// One step of a path that leaves an event outstanding, shown as a note.
struct PathStep {
  SourceSpan span;
  std::string text;
};

// A box of elements [lo, hi) of one tensor variable (the root of its rebindings). `tensor` null: the
// region is not known statically (a dynamic offset or shape); it is then never said to overlap.
struct GmRegion {
  const ir::VarNode* tensor = nullptr;
  std::vector<long long> lo, hi;
  bool overlaps(const GmRegion& o) const;
};

// What may hold of one event variable.
struct EventFact {
  std::string name;
  uint8_t states = kUnissued;
  SourceSpan issue;                      // the issue whose transfer may be pending
  SourceSpan waited;                     // a wait that may already have drained it
  const ir::VarNode* session = nullptr;  // the session that issued it
  std::vector<PathStep> skip_path;       // why it may still be pending; not part of equality
  // The issuing core's side of the transfer: the source of a put (`local_read`: the core may read
  // it, not write it) or the destination of a get (neither) while the event may be pending.
  GmRegion local;
  bool local_read = false;

  bool may_be(EventStateBit b) const { return (states & b) != 0; }
};

// Whether a pld.system.defer_wait registration may have run on the paths to a point (a set, like
// an event's states): after one, a deferred waiter may only compute scalars and register more.
enum DeferredBit : uint8_t { kNoRegistration = 1, kRegistered = 2 };

// The lattice element: facts per event variable id; `reachable == false` is bottom (after a return).
struct EventState {
  bool reachable = true;
  std::map<int, EventFact> events;
  uint8_t deferred = kNoRegistration;
  SourceSpan registered;  // a registration that may have run (for notes); not part of equality

  static EventState bottom();
  // Per-event union. A Pending fact of one side gains `note_a`/`note_b` (when not empty) as a path step
  // if the other side has the event drained, so diagnostics can name the path that skips the wait.
  static EventState join(const EventState& a, const EventState& b, const PathStep& note_a = {},
                         const PathStep& note_b = {});
  // Equality of states, issues and sessions (paths are explanations, not facts).
  bool operator==(const EventState& o) const;
  // "{e: pending, f: drained|pending}", events sorted by name, then "defer_wait: registered" (with
  // "|none" where a path has none) once a registration may have run.
  std::string str() const;
};

// Runs the analysis over one kernel and reports every violation of the async ordering contract to
// `diags`. When `facts` is given, it receives one line per event-relevant point, in source order.
// Returns true when nothing was reported.
bool check_async_events(const ir::Function& kernel, DiagnosticEngine& diags,
                        std::vector<std::string>* facts = nullptr);

}  // namespace ptodist::analysis
