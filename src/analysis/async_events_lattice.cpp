// The lattice of the async-event dataflow: join, equality and printing of EventState.
#include <algorithm>

#include "ptodist/analysis/async_events.h"

namespace ptodist::analysis {

namespace {

bool same_span(const SourceSpan& a, const SourceSpan& b) {
  return a.file == b.file && a.line == b.line && a.col == b.col;
}

// A span from the source, or a hand-made one in a test: any line number counts.
bool known(const SourceSpan& s) {
  return s.line > 0;
}

// Loops join the same step again on every iteration; a path is explained by a few distinct steps.
void add_step(EventFact& f, const PathStep& step) {
  if (step.text.empty() || f.skip_path.size() >= 4) return;
  for (const PathStep& p : f.skip_path)
    if (same_span(p.span, step.span) && p.text == step.text) return;
  f.skip_path.push_back(step);
}

// Joins two facts of the same event. A side on which the event may be pending lends its issue and its
// path, so the diagnostic names a path that really skips the wait.
EventFact join_fact(const EventFact& a, const EventFact& b, const PathStep& note_a, const PathStep& note_b) {
  bool a_only = a.may_be(kPending) && !b.may_be(kPending);
  bool b_only = b.may_be(kPending) && !a.may_be(kPending);
  const EventFact& other = b_only ? a : b;
  EventFact out = b_only ? b : a;
  out.states = a.states | b.states;
  if (!known(out.issue)) out.issue = other.issue;
  if (!known(out.waited)) out.waited = other.waited;
  if (!out.session) out.session = other.session;
  if (a_only) add_step(out, note_a);
  if (b_only) add_step(out, note_b);
  return out;
}

}  // namespace

EventState EventState::bottom() {
  EventState s;
  s.reachable = false;
  return s;
}

EventState EventState::join(const EventState& a, const EventState& b, const PathStep& note_a,
                            const PathStep& note_b) {
  if (!a.reachable) return b;
  if (!b.reachable) return a;
  EventState out;
  out.deferred = a.deferred | b.deferred;
  out.registered = known(a.registered) ? a.registered : b.registered;
  // An event absent on one side was not issued on those paths.
  for (const auto& [id, fa] : a.events) {
    auto it = b.events.find(id);
    EventFact fb = it != b.events.end() ? it->second : EventFact{fa.name, kUnissued, {}, {}, nullptr, {}};
    out.events[id] = join_fact(fa, fb, note_a, note_b);
  }
  for (const auto& [id, fb] : b.events) {
    if (a.events.count(id)) continue;
    EventFact fa{fb.name, kUnissued, {}, {}, nullptr, {}};
    out.events[id] = join_fact(fa, fb, note_a, note_b);
  }
  return out;
}

bool EventState::operator==(const EventState& o) const {
  if (reachable != o.reachable || deferred != o.deferred || events.size() != o.events.size()) return false;
  for (const auto& [id, f] : events) {
    auto it = o.events.find(id);
    if (it == o.events.end()) return false;
    const EventFact& g = it->second;
    if (f.states != g.states || !same_span(f.issue, g.issue) || f.session != g.session) return false;
  }
  return true;
}

std::string EventState::str() const {
  if (!reachable) return "unreachable";
  std::vector<const EventFact*> facts;
  for (const auto& [id, f] : events) facts.push_back(&f);
  std::stable_sort(facts.begin(), facts.end(),
                   [](const EventFact* x, const EventFact* y) { return x->name < y->name; });
  std::string out = "{";
  for (const EventFact* f : facts) {
    if (out.size() > 1) out += ", ";
    out += f->name + ": ";
    std::string states;
    auto add = [&](EventStateBit b, const char* word) {
      if (!f->may_be(b)) return;
      if (!states.empty()) states += "|";
      states += word;
    };
    add(kDrained, "drained");
    add(kPending, "pending");
    add(kUnissued, "unissued");
    out += states;
  }
  if (deferred & kRegistered) {
    if (out.size() > 1) out += ", ";
    out += (deferred & kNoRegistration) ? "defer_wait: registered|none" : "defer_wait: registered";
  }
  return out + "}";
}

}  // namespace ptodist::analysis
