// Turning the event stream into per-actor step lists for the replay, as the events come: an op's
// inner events (the notify it sends, the transfer it issues, the tasks it submits or joins) become
// steps after the op's own cost; the wait an op satisfied becomes a step before it. Only the steps are
// kept, not the events (the published all-gather + GEMM size reports millions of them).
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "replay.h"

namespace ptodist::timing {

using runtime::events::Kind;

namespace {

bool on_chip(runtime::events::Space s) {
  using runtime::events::Space;
  return s == Space::Vec || s == Space::Mat || s == Space::Left || s == Space::Right || s == Space::Acc ||
         s == Space::Bias;
}

}  // namespace

void StepList::grow() {
  constexpr size_t kHugePage = size_t{2} << 20;
  const size_t bytes = (kFirst << chunks_.size()) * sizeof(Step);
  void* chunk = nullptr;
  if (bytes >= kHugePage) {
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    chunk = std::aligned_alloc(kHugePage, rounded);
#ifdef MADV_HUGEPAGE
    if (chunk) madvise(chunk, rounded, MADV_HUGEPAGE);  // advice only: without it, 4 KiB pages
#endif
  } else {
    chunk = std::malloc(bytes);
  }
  if (!chunk) throw std::bad_alloc();
  chunks_.push_back(static_cast<Step*>(chunk));
}

StepList::~StepList() {
  for (Step* chunk : chunks_) std::free(chunk);
}

// An op without synchronisation or remote access runs on its pipe; its footprints say what it must
// wait for. It writes its result when that is a tile, or GM it writes (a store returns the tensor it
// wrote, a tensor-level op a new tensor); a view (slice, reshape) writes nothing.
void ActorBuilder::describe_data(Building& b, const Event& e, Step& op) {
  constexpr uint32_t kSync = ir::kNotify | ir::kWait | ir::kFence | ir::kInvalidate | ir::kSession |
                             ir::kAsyncIssue | ir::kAsyncWait | ir::kAsyncTest | ir::kPrefetch | ir::kSubmit |
                             ir::kReadsRemote | ir::kWritesRemote;
  const OpCost& cost = op.site->cost;
  op.on_pipe = (e.effects & kSync) == 0 && cost.pipe != Pipe::Link;
  if (!op.on_pipe) return;
  for (int k = 0; k < e.n_in && k < 3; ++k)
    if (e.in[k].extent > 0) op.reads[op.n_reads++] = footprint(b, e.in[k].addr, e.in[k].extent);
  const bool writes = on_chip(e.result.space) || (e.effects & ir::kWritesGM) || cost.pipe != Pipe::Scalar;
  if (writes && e.result.extent > 0) op.write = footprint(b, e.result.addr, e.result.extent);
}

uint32_t ActorBuilder::footprint(Building& b, uintptr_t addr, long long extent) {
  std::vector<Footprint>& pool = b.actor.footprints;
  const uint64_t h = (addr ^ (static_cast<uint64_t>(extent) << 24)) * 0x9E3779B97F4A7C15ULL;
  uint32_t& slot = b.recent[h >> 54];  // the top 10 bits: one of 1024
  if (slot != 0 && pool[slot].addr == addr && pool[slot].extent == extent) return slot;
  slot = static_cast<uint32_t>(pool.size());
  pool.push_back(Footprint{addr, extent});
  return slot;
}

void ActorBuilder::add_step(Building& b, Step s) {
  if (b.pending.empty()) {
    b.actor.steps.push_back(std::move(s));
    return;
  }
  (s.type == Step::Type::Wait ? b.waits : b.pending).back().push_back(std::move(s));
}

// A synchronisation step: its SyncInfo goes to the actor's list.
Step ActorBuilder::sync_step(Building& b, Step::Type type, const Event& e) {
  Step s;
  s.type = type;
  s.site = site(OpSite{OpCost{}, e.span, e.op});
  s.sync = static_cast<uint32_t>(b.actor.sync.size());
  b.actor.sync.push_back(SyncInfo{e.effects, e.peer, e.cores, e.bytes, e.id, e.deps, -1, 0, 0, type});
  return s;
}

void ActorBuilder::end_op(Building& b, const Event& e) {
  if (b.pending.empty()) return;
  std::vector<Step> inner = std::move(b.pending.back()), waits = std::move(b.waits.back());
  b.pending.pop_back();
  b.waits.pop_back();
  for (Step& s : waits) add_step(b, std::move(s));
  Step op;
  op.site = site(OpSite{op_cost(e, e.actor.rank, p_), e.span, e.op});
  describe_data(b, e, op);
  if (op.site->cost.link_bytes > 0) {  // the replay records its time on the link there
    op.sync = static_cast<uint32_t>(b.actor.sync.size());
    b.actor.sync.emplace_back();
  }
  add_step(b, std::move(op));
  for (Step& s : inner) add_step(b, std::move(s));
}

void ActorBuilder::add(const Event& e) {
  if (e.actor.id == 0 || e.actor.rank < 0) return;  // the host and the DMA engines' reports
  auto [it, fresh] = index_.try_emplace(e.actor.id, building_.size());
  if (fresh) building_.emplace_back();
  Building& b = building_[it->second];
  switch (e.kind) {
    case Kind::ActorStart:
    case Kind::BlockStart:
      b.actor.started_in_run = true;
      b.actor.block_index = e.cores;
      b.actor.who = e.actor;
      b.actor.block = e.kind == Kind::BlockStart;
      b.actor.task = e.id;
      break;
    case Kind::OpBegin:
      b.pending.emplace_back();
      b.waits.emplace_back();
      break;
    case Kind::OpEnd:
      end_op(b, e);
      break;
    case Kind::Notify:
      add_step(b, sync_step(b, Step::Type::Notify, e));
      break;
    case Kind::TransferIssue:
      add_step(b, sync_step(b, Step::Type::Issue, e));
      break;
    case Kind::WaitSatisfied:
      add_step(b, sync_step(b, Step::Type::Wait, e));
      break;
    case Kind::TaskSubmit:
      add_step(b, sync_step(b, Step::Type::Submit, e));
      break;
    case Kind::TaskJoin:
      add_step(b, sync_step(b, Step::Type::Join, e));
      break;
    case Kind::TaskDeferred:
      b.actor.completes_after = e.deps;
      break;
    default:
      break;
  }
}

// The actors in an order that does not depend on how the CPU run's threads interleaved (the replay
// breaks ties between actors by it): by rank; a rank's chip orchestrations first, in the order they
// ran (one thread runs them, so they were first seen in that order); then the blocks of the rank's
// tasks in the order the tasks were submitted, each task's by block index.
static void canonical_order(std::vector<SimActor>& actors) {
  std::unordered_map<uint64_t, size_t> submit_seq;  // task id -> its place among its rank's submits
  std::unordered_map<int, size_t> submits;          // rank -> submits so far
  for (const SimActor& x : actors)
    if (!x.block)
      for (const SyncInfo& s : x.sync)
        if (s.type == Step::Type::Submit) submit_seq.emplace(s.id, submits[x.who.rank]++);
  auto key = [&](const SimActor& x) {
    if (!x.block) return std::tuple<int, bool, size_t, int>(x.who.rank, false, 0, 0);
    auto it = submit_seq.find(x.task);
    return std::tuple<int, bool, size_t, int>(x.who.rank, true,
                                              it == submit_seq.end() ? SIZE_MAX : it->second, x.block_index);
  };
  std::stable_sort(actors.begin(), actors.end(),
                   [&](const SimActor& a, const SimActor& b) { return key(a) < key(b); });
}

std::vector<SimActor> ActorBuilder::take() {
  std::vector<SimActor> out;
  for (Building& b : building_)
    if (b.actor.started_in_run) out.push_back(std::move(b.actor));
  building_.clear();
  index_.clear();
  canonical_order(out);
  return out;
}

}  // namespace ptodist::timing
