// Turning a recorded event stream into per-actor step lists for the replay: an op's inner events
// (the notify it sends, the transfer it issues, the tasks it submits or joins) become steps after the
// op's own cost; the wait an op satisfied becomes a step before it.
#include <unordered_map>

#include "replay.h"

namespace ptodist::timing {

using runtime::events::Kind;

namespace {

struct Building {
  SimActor actor;
  std::vector<std::vector<Step>> pending;  // per open op: its inner steps
  std::vector<std::vector<Step>> waits;    // per open op: the waits it satisfied
};

void add_step(Building& b, Step s) {
  if (b.pending.empty()) {
    b.actor.steps.push_back(s);
    return;
  }
  (s.type == Step::Type::Wait ? b.waits : b.pending).back().push_back(s);
}

void end_op(Building& b, const Event& e, const TimingParams& p) {
  if (b.pending.empty()) return;
  std::vector<Step> inner = std::move(b.pending.back()), waits = std::move(b.waits.back());
  b.pending.pop_back();
  b.waits.pop_back();
  std::vector<Step> seq = waits;
  Step op{Step::Type::Op, &e, op_cost(e, e.actor.rank, p)};
  seq.push_back(op);
  seq.insert(seq.end(), inner.begin(), inner.end());
  for (Step& s : seq) add_step(b, s);
}

}  // namespace

std::vector<SimActor> build_actors(const std::vector<Event>& events, const TimingParams& p) {
  std::unordered_map<uint64_t, size_t> index;
  std::vector<Building> building;
  for (const Event& e : events) {
    if (e.actor.id == 0 || e.actor.rank < 0) continue;  // the host and the DMA engines' reports
    auto [it, fresh] = index.try_emplace(e.actor.id, building.size());
    if (fresh) building.emplace_back();
    Building& b = building[it->second];
    switch (e.kind) {
      case Kind::ActorStart:
      case Kind::BlockStart:
        b.actor.start_event = &e;
        b.actor.who = e.actor;
        b.actor.block = e.kind == Kind::BlockStart;
        b.actor.task = e.id;
        break;
      case Kind::OpBegin:
        b.pending.emplace_back();
        b.waits.emplace_back();
        break;
      case Kind::OpEnd:
        end_op(b, e, p);
        break;
      case Kind::Notify:
        add_step(b, Step{Step::Type::Notify, &e, {}});
        break;
      case Kind::TransferIssue:
        add_step(b, Step{Step::Type::Issue, &e, {}});
        break;
      case Kind::WaitSatisfied:
        add_step(b, Step{Step::Type::Wait, &e, {}});
        break;
      case Kind::TaskSubmit:
        add_step(b, Step{Step::Type::Submit, &e, {}});
        break;
      case Kind::TaskJoin:
        add_step(b, Step{Step::Type::Join, &e, {}});
        break;
      default:
        break;
    }
  }
  std::vector<SimActor> out;
  for (Building& b : building)
    if (b.actor.start_event) out.push_back(std::move(b.actor));
  return out;
}

}  // namespace ptodist::timing
