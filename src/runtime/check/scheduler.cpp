// The check scheduler's actors and baton (scheduler.h): one actor runs at a time; at every switch
// point the holder itself picks, with the seeded RNG, the next actor to run or a transfer step to land.
#include "scheduler.h"

#include "sched_impl.h"

namespace ptodist::runtime::check {

size_t SchedulerImpl::pick_index(size_t n) {
  return static_cast<size_t>((static_cast<unsigned __int128>(rng()) * n) >> 64);
}

bool SchedulerImpl::all_finished() const {
  for (const auto& a : actors)
    if (a->state != RunState::Finished) return false;
  return true;
}

std::vector<bool>& SchedulerImpl::held_cores(const Actor& a) {
  return (a.cube ? cube_held : vector_held)[static_cast<size_t>(a.rank)];
}

int SchedulerImpl::free_core(const Actor& a) {
  const std::vector<bool>& held = held_cores(a);
  for (size_t i = 0; i < held.size(); ++i)
    if (!held[i]) return static_cast<int>(i);
  return -1;
}

bool SchedulerImpl::takes_core(Actor& a) {
  int id = free_core(a);
  if (id < 0) return false;
  held_cores(a)[static_cast<size_t>(id)] = true;
  a.core_id = id;
  return true;
}

void SchedulerImpl::release_core(Actor& a) {
  if (a.core_id < 0) return;
  held_cores(a)[static_cast<size_t>(a.core_id)] = false;
  a.core_id = -1;
}

bool SchedulerImpl::startable(Actor& a) {
  if (a.start_when && !a.start_when()) return false;
  return !a.needs_core || a.core_id >= 0 || free_core(a) >= 0;
}

// Candidates in a fixed order (actors by id, then transfers by issue), so the seed alone decides.
// A transfer landing at the wait is offered once its issuer waits on its session (or has finished),
// or when nothing else could run.
Choice SchedulerImpl::choose(std::unique_lock<std::mutex>&) {
  std::vector<Choice> cand;
  for (const auto& a : actors) {
    bool ok = false;
    switch (a->state) {
      case RunState::Runnable:
        ok = true;
        break;
      case RunState::Blocked:
        ok = a->ready && (*a->ready)();
        break;
      case RunState::Unstarted:
        ok = startable(*a);
        break;
      default:
        break;
    }
    if (ok) cand.push_back(Choice{Choice::Run, a->id, nullptr});
  }
  std::vector<Choice> held_back;
  for (const auto& f : flights) {
    if (!is_head(*f)) continue;
    const Actor& issuer = actor(f->issuer);
    // "At the wait": the issuer waits on this session's completion word (or has ended).
    bool waiting =
        issuer.state == RunState::Finished ||
        (issuer.state == RunState::Blocked && issuer.info.watch_u == f->t.session->completion_word());
    (f->landing != Landing::AtWait || waiting ? cand : held_back).push_back(Choice{Choice::Land, 0, f.get()});
  }
  if (cand.empty()) cand = std::move(held_back);
  if (cand.empty()) return Choice{};
  Choice c = cand[pick_index(cand.size())];
  uint64_t code = c.kind == Choice::Run
                      ? static_cast<uint64_t>(c.actor)
                      : (1ull << 40) + (static_cast<uint64_t>(c.flight->issuer) << 20) + c.flight->t.seq;
  digest = (digest ^ code) * 1099511628211ull;
  return c;
}

void SchedulerImpl::hand_on(ActorId self, std::unique_lock<std::mutex>& lk) {
  while (!aborted) {
    Choice c = choose(lk);
    if (c.kind == Choice::Land) {
      // Only the baton holder touches transfers; the lock is released because landing calls the
      // happens-before hooks, which may report a hazard (and so call abort()).
      lk.unlock();
      land_step(c.flight);
      lk.lock();
      continue;
    }
    if (c.kind == Choice::None) {
      if (all_finished()) {
        round_done = true;
        holder = kDriver;
        driver_cv.notify_all();
        return;
      }
      std::string report = deadlock_report();
      aborted = true;
      lk.unlock();
      world.report_hazard(std::move(report));  // calls abort(), which wakes every actor
      lk.lock();
      return;
    }
    Actor& next = actor(c.actor);
    if (next.needs_core && next.core_id < 0) takes_core(next);
    next.state = RunState::Running;
    next.ready = nullptr;
    holder = next.id;
    if (next.id != self) next.cv.notify_one();
    return;
  }
}

void SchedulerImpl::wait_for_baton(ActorId a, std::unique_lock<std::mutex>& lk) {
  Actor& me = actor(a);
  me.cv.wait(lk, [&] { return holder == a || aborted; });
  if (aborted) throw RunAborted{};
}

void SchedulerImpl::abort_all() {
  aborted = true;
  std::lock_guard<std::mutex> lock(mu);
  for (auto& a : actors) a->cv.notify_all();
  driver_cv.notify_all();
}

Scheduler::Scheduler(World& world, uint64_t seed) : impl_(std::make_unique<SchedulerImpl>(world, seed)) {}
Scheduler::~Scheduler() = default;

uint64_t Scheduler::seed() const {
  return impl_->seed;
}

void Scheduler::begin_round() {
  SchedulerImpl& s = *impl_;
  std::lock_guard<std::mutex> lock(s.mu);
  s.actors.clear();
  s.flights.clear();
  s.holder = kDriver;
  s.round_done = false;
  s.aborted = false;
  s.digest = SchedulerImpl::kDigestStart;
  const ChipProfile& p = s.world.profile();
  s.vector_held.assign(static_cast<size_t>(s.world.ranks()), std::vector<bool>(p.vector_cores, false));
  s.cube_held.assign(static_cast<size_t>(s.world.ranks()), std::vector<bool>(p.cube_cores, false));
}

// Transfers left by an aborted round are dropped (their memory may be gone); actors stay until the
// next begin_round so late readers of names never see freed strings.
void Scheduler::end_round() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->flights.clear();
}

ActorId Scheduler::spawn(ActorId parent, int rank, std::string name, bool needs_core, bool cube) {
  return spawn(parent, rank, std::move(name), needs_core, cube, nullptr);
}

ActorId Scheduler::spawn(ActorId parent, int rank, std::string name, bool needs_core, bool cube,
                         std::function<bool()> start_when) {
  SchedulerImpl& s = *impl_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto a = std::make_unique<Actor>();
  a->id = static_cast<ActorId>(s.actors.size());
  a->parent = parent;
  a->rank = rank;
  a->name = std::move(name);
  a->needs_core = needs_core;
  a->cube = cube;
  a->start_when = std::move(start_when);
  // A block with nothing to wait for takes its core now, so its name can carry the core from the start.
  if (needs_core && !a->start_when) s.takes_core(*a);
  s.actors.push_back(std::move(a));
  return s.actors.back()->id;
}

int Scheduler::core_of(ActorId a) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->actor(a).core_id;
}

void Scheduler::release_core(ActorId a) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->release_core(impl_->actor(a));
}

void Scheduler::set_name(ActorId a, std::string name) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->actor(a).name = std::move(name);
}

std::string Scheduler::name_of(ActorId a) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (a < 0 || static_cast<size_t>(a) >= impl_->actors.size()) return "";
  return impl_->actor(a).name;
}

void Scheduler::set_origin(ActorId a, const ir::FunctionNode* fn, const SourceSpan& submit) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->actor(a).fn = fn;
  impl_->actor(a).origin = submit;
}

void Scheduler::attach(ActorId a, CoreState* core) {
  if (core) core->actor = a;
  std::unique_lock<std::mutex> lk(impl_->mu);
  impl_->wait_for_baton(a, lk);
}

void Scheduler::finish(ActorId a) {
  SchedulerImpl& s = *impl_;
  std::unique_lock<std::mutex> lk(s.mu);
  Actor& me = s.actor(a);
  bool holds = s.holder == a;
  me.state = RunState::Finished;
  me.ready = nullptr;
  s.release_core(me);
  if (s.aborted) {
    s.driver_cv.notify_all();
    return;
  }
  if (holds) s.hand_on(a, lk);
}

void Scheduler::yield(ActorId a) {
  if (a < 0) return;  // the host orchestrator runs before any actor, outside the scheduler
  SchedulerImpl& s = *impl_;
  std::unique_lock<std::mutex> lk(s.mu);
  if (s.aborted) throw RunAborted{};
  s.actor(a).state = RunState::Runnable;
  s.hand_on(a, lk);
  s.wait_for_baton(a, lk);
}

void Scheduler::block_until(ActorId a, const BlockInfo& info, const std::function<bool()>& ready) {
  SchedulerImpl& s = *impl_;
  std::unique_lock<std::mutex> lk(s.mu);
  if (s.aborted) throw RunAborted{};
  Actor& me = s.actor(a);
  me.state = RunState::Blocked;
  me.ready = &ready;
  me.info = info;
  s.hand_on(a, lk);
  s.wait_for_baton(a, lk);
}

void Scheduler::submit_transfer(ActorId issuer, DmaTransfer t) {
  impl_->add_flight(issuer, std::move(t));
}

void Scheduler::run_round() {
  SchedulerImpl& s = *impl_;
  std::unique_lock<std::mutex> lk(s.mu);
  s.hand_on(kDriver, lk);
  s.driver_cv.wait(lk, [&] { return s.round_done || (s.aborted && s.all_finished()); });
}

uint64_t Scheduler::digest() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->digest;
}

void Scheduler::abort() {
  impl_->abort_all();
}

}  // namespace ptodist::runtime::check
