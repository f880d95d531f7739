// The world of ranks: window heap, blocking waits that burn (almost) no CPU, abort, and the core
// registry the watchdog reads.
#include "ptodist/runtime/world.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <sstream>

#include "check/happens_before.h"
#include "check/scheduler.h"
#include "ptodist/runtime/dma.h"
#include "rank_placement.h"

namespace ptodist::runtime {

World::World(const WorldOptions& options)
    : ranks_(options.ranks),
      profile_(options.profile),
      transport_(options.make_transport ? options.make_transport() : make_inproc_transport(options.ranks)),
      generation_(new std::atomic<uint32_t>[options.ranks]) {
  for (int r = 0; r < ranks_; ++r) generation_[r].store(0);
  // Rank threads that fill the CPUs leave the engine threads none: their transfers wait for a core.
  const bool defer_dma = options.defer_dma.value_or(ranks_ >= usable_cpus());
  for (int r = 0; r < ranks_; ++r) dma_.push_back(std::make_unique<DmaEngine>(*this, r, defer_dma));
  if (options.check) {
    scheduler_ = std::make_unique<check::Scheduler>(*this, options.seed);
    hb_ = std::make_unique<check::HappensBefore>(*this);
    observed_ = true;
  }
}

World::~World() {
  aborted_.store(true);
  wake_all();
  dma_.clear();  // joins the engine threads before the transport goes
}

WindowBufferValue World::alloc_window(long long bytes, std::string name) {
  std::lock_guard<std::mutex> lock(mu_);
  // A later round re-runs the host orchestrator: reuse the segment allocated at the same position.
  if (next_segment_ < segments_.size() && segments_[next_segment_].bytes == bytes) {
    return segments_[next_segment_++];
  }
  WindowBufferValue w;
  w.segment = transport_->alloc_segment(bytes);
  w.bytes = bytes;
  w.name = std::move(name);
  if (next_segment_ < segments_.size())
    segments_[next_segment_] = w;
  else
    segments_.push_back(w);
  ++next_segment_;
  return w;
}

namespace {

// A wait whose condition is not met yet first yields the CPU a few times before it sleeps: the
// notify usually comes from another rank thread of this process, maybe queued on this very CPU,
// and a futex sleep and wake-up cost 10-20 us on a loaded machine. Measured on the 2-CPU build
// machine at load 13-17, 2000 calls a round: barrier 2 ranks 20-28 -> 13-17 us a call, 4 ranks
// 104-132 -> 45-52 us; allreduce 4 KiB 60-64 -> 27-52 us and 250-270 -> 120-140 us. A spin of
// pauses instead made every cell slower (it keeps the CPU from the thread that would notify).
constexpr int kYieldsBeforeSleep = 32;

// Before the yields, a short spin, only when every rank thread can have a CPU of its own, and only
// while spinning pays (spin_until): the notify then comes from a thread running on another CPU, and
// a yield costs a system call per check. 2 ranks on the 2-CPU machine, quiet, 2000 calls a round,
// alternating runs: barrier 1.6-3.4 -> 0.9-1.0 us a call, allreduce 4 KiB 7.0-7.4 -> 4.5-4.8 us,
// broadcast 4 KiB 2.9-4.0 -> 1.2-1.6 us; with a busy process on one CPU, the same as without the
// spin (barrier 3.3-4.4 us either way). A 50 us spin was 20-30% slower there.
constexpr auto kSpinTime = std::chrono::microseconds(5);

// Spins up to kSpinTime for `ready`, unless this thread's recent spins ran out: a thread whose peer
// is not running (it shares a CPU with this one or with another job) gets nothing from spinning but a
// delay, so after each spin that fails this thread skips the spin for twice as many waits (up to 64).
bool spin_until(const std::function<bool()>& ready) {
  thread_local int skip = 0, backoff = 1;
  if (skip > 0) {
    --skip;
    return false;
  }
  auto spin_end = std::chrono::steady_clock::now() + kSpinTime;
  for (int i = 1;; ++i) {
    __builtin_ia32_pause();
    if (ready()) {
      backoff = 1;
      return true;
    }
    if (i % 16 == 0 && std::chrono::steady_clock::now() >= spin_end) break;
  }
  skip = backoff;
  backoff = std::min(backoff * 2, 64);
  return false;
}

}  // namespace

// Waits on the rank's generation counter: wake(rank) bumps it after every write that may satisfy a
// waiter (a notify, a remote write, a DMA completion, a task's end), so a blocked core sleeps in the
// kernel (futex) until then. Reading the generation before testing `ready` closes the lost-wakeup race.
void World::block_until(int rank, CoreState* core, const BlockInfo& info,
                        const std::function<bool()>& ready) {
  if (scheduler_ && core && core->actor >= 0) return checked_block_until(core, info, ready);
  if (transport_->needs_polling()) return poll_until(rank, core, info, ready);
  std::atomic<uint32_t>& gen = generation_[rank < 0 ? 0 : rank];
  uint32_t seen = gen.load(std::memory_order_seq_cst);
  if (ready()) return;
  // A core about to wait runs its rank's deferred transfers first (dma_engine.cpp).
  if (rank >= 0 && dma_[rank]->deferred()) {
    dma_[rank]->help(ready);
    if (ready()) return;
  }
  if (ranks_ <= usable_cpus() && spin_until(ready)) return;
  for (int i = 0; i < kYieldsBeforeSleep; ++i) {
    sched_yield();
    if (ready()) return;
  }
  if (core) {
    core->block = info;
    core->blocked.store(true, std::memory_order_release);
  }
  while (true) {
    if (aborted()) {
      if (core) core->blocked.store(false);
      throw RunAborted{};
    }
    if (ready()) break;
    gen.wait(seen, std::memory_order_seq_cst);
    seen = gen.load(std::memory_order_seq_cst);
  }
  if (core) {
    core->blocked.store(false, std::memory_order_release);
    core->progress.fetch_add(1, std::memory_order_relaxed);
  }
}

// Check mode: the scheduler parks the actor until `ready()` holds (it evaluates it when picking); the
// core's blocked flag still feeds the watchdog's report.
void World::checked_block_until(CoreState* core, const BlockInfo& info, const std::function<bool()>& ready) {
  core->block = info;
  core->blocked.store(true, std::memory_order_release);
  try {
    scheduler_->block_until(core->actor, info, ready);
  } catch (...) {
    core->blocked.store(false);
    throw;
  }
  core->blocked.store(false, std::memory_order_release);
  core->progress.fetch_add(1, std::memory_order_relaxed);
}

void World::wake(int rank) {
  std::atomic<uint32_t>& gen = generation_[rank < 0 ? 0 : rank];
  gen.fetch_add(1, std::memory_order_seq_cst);
  gen.notify_all();
}

void World::wake_all() {
  for (int r = 0; r < ranks_; ++r) wake(r);
}

void World::fail(const RunError& error) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!has_error_ && !hung_) {
      has_error_ = true;
      error_ = error;
    }
  }
  aborted_.store(true);
  wake_all();
  if (scheduler_) scheduler_->abort();
}

void World::abort_for_hang(std::string report) {
  end_with_report(std::move(report), false);
}

void World::report_hazard(std::string report) {
  end_with_report(std::move(report), true);
}

// A hang and a check-mode hazard end the run alike (exit code 3); the first report wins.
void World::end_with_report(std::string report, bool hazard) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!has_error_ && !hung_) {
      hung_ = true;
      hazard_ = hazard;
      hang_report_ = std::move(report);
    }
  }
  aborted_.store(true);
  wake_all();
  if (scheduler_) scheduler_->abort();
}

bool World::has_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return has_error_;
}

RunError World::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

void World::reset_status() {
  std::lock_guard<std::mutex> lock(mu_);
  has_error_ = false;
  hung_ = false;
  hazard_ = false;
  hang_report_.clear();
  error_ = RunError{};
  aborted_.store(false);
  next_segment_ = 0;
  for (auto& d : dma_) d->clear();
}

std::string CoreState::name() const {
  if (orchestrator) return "orchestrator (" + std::string(function) + ")";
  return std::string(cube ? "cube" : "vector") + " core " + (core >= 0 ? std::to_string(core) : "?") +
         " (block " + std::to_string(block_idx) + "/" + std::to_string(block_num) + " of " +
         std::string(function) + ")";
}

void World::register_core(CoreState* core) {
  std::lock_guard<std::mutex> lock(mu_);
  cores_.push_back(core);
}

void World::unregister_core(CoreState* core) {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase(cores_, core);
}

uint64_t World::total_progress() {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t sum = misc_progress_.load(std::memory_order_relaxed);
  for (CoreState* c : cores_) sum += c->progress.load(std::memory_order_relaxed);
  for (auto& d : dma_) sum += d->completed();
  return sum + cores_.size();
}

// One line per blocked core: where it waits and what it sees.
std::string World::blocked_report() {
  std::lock_guard<std::mutex> lock(mu_);
  std::ostringstream os;
  int blocked = 0;
  for (CoreState* c : cores_) {
    if (!c->blocked.load(std::memory_order_acquire)) continue;
    ++blocked;
    const BlockInfo& b = c->block;
    os << "  rank " << c->rank << ", " << c->name() << ": blocked in " << b.op << " at " << b.span.str();
    if (b.watch) {
      os << " on " << b.cell << ": sees " << std::atomic_ref<int32_t>(*const_cast<int32_t*>(b.watch)).load()
         << ", expects " << b.cmp << " " << b.expected;
    } else if (b.watch_u) {
      os << " on " << b.cell << ": completed "
         << std::atomic_ref<uint32_t>(*const_cast<uint32_t*>(b.watch_u)).load()
         << ", expects >= " << b.expected;
    } else if (!b.cell.empty()) {
      os << " on " << b.cell;
    }
    os << "\n";
    if (b.span.valid()) os << "      " << b.span.file->line(b.span.line) << "\n";
  }
  std::ostringstream head;
  head << "watchdog: no progress; " << blocked << " of " << cores_.size() << " running cores are blocked\n";
  return head.str() + os.str();
}

}  // namespace ptodist::runtime
