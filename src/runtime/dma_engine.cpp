// The per-rank DMA engine thread: transfers run in issue order, in pieces of the session's
// block_bytes, while the cores keep computing; the completion word is written last, with release
// order, so a core that sees it also sees the data. A core about to wait for a transfer that has not
// started runs it itself (help). With a transport that offloads transfers (MPI), the engine only
// forwards to it.
//
// Deferred engines: when the rank threads fill the CPUs, the engine thread has no CPU of its own,
// and waking it at every submit only makes it take turns with the cores (a context switch each way).
// A deferred engine then leaves transfers queued: a core runs them when it is about to block for any
// reason (World::block_until) or polls an event, and the engine thread takes what is left at the
// end of the round. A transfer still lands between its issue and the wait that observes it, as the
// asynchronous contract allows; only the work moves to a thread that would otherwise wait.
#include <algorithm>

#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/events.h"
#include "ptodist/runtime/world.h"

namespace ptodist::runtime {

DmaEngine::DmaEngine(World& world, int rank, bool defer)
    : world_(world),
      rank_(rank),
      offload_(dynamic_cast<DmaOffload*>(&world.transport())),
      defer_(defer && !offload_) {
  if (!offload_) thread_ = std::thread([this] { loop(); });
}

DmaEngine::~DmaEngine() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  idle_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t DmaEngine::completed() const {
  return offload_ ? offload_->transfers_completed() : completed_.load(std::memory_order_relaxed);
}

void DmaEngine::submit(DmaTransfer t) {
  if (offload_) return offload_->submit_transfer(t);
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(t));
  }
  if (!defer_) cv_.notify_one();
}

void DmaEngine::clear() {
  if (offload_) return offload_->drop_queued_transfers();
  std::lock_guard<std::mutex> lock(mu_);
  queue_.clear();
}

void DmaEngine::wait_idle() {
  if (offload_) return offload_->drain_transfers();
  std::unique_lock<std::mutex> lock(mu_);
  draining_ = true;  // a deferred engine's thread takes the leftovers
  if (!queue_.empty()) cv_.notify_one();
  idle_cv_.wait(lock, [&] { return stop_ || (queue_.empty() && !busy_); });
  draining_ = false;
}

void DmaEngine::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    // A helping core may run the front transfer: the next one waits for it (issue order).
    // A deferred engine's thread waits for the end of the round, whatever wakes it.
    cv_.wait(lock, [&] { return stop_ || (!queue_.empty() && !busy_ && (!defer_ || draining_)); });
    if (stop_) return;
    run_front(lock);
  }
}

// A core that would block on a transfer the engine thread has not started copies it itself, instead
// of sleeping until a thread that may not even be running yet has copied it and woken it up: when the
// rank threads fill the CPUs, those hand-offs (a context switch each way) cost more than the copy
// (docs/runtime.md).
void DmaEngine::help(const std::function<bool()>& done) {
  if (offload_) return;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_ && !busy_ && !queue_.empty() && !done()) run_front(lock);
  // What the caller does not wait for stays asynchronous: the engine thread (which may have woken
  // for it and found a transfer running here) takes it, or, deferred, the next core that blocks.
  if (!defer_ && !busy_ && !queue_.empty()) cv_.notify_one();
}

void DmaEngine::run_front(std::unique_lock<std::mutex>& lock) {
  DmaTransfer t = std::move(queue_.front());
  queue_.pop_front();
  busy_ = true;
  lock.unlock();
  if (!world_.aborted()) execute(t);
  lock.lock();
  busy_ = false;
  if (queue_.empty()) idle_cv_.notify_all();
}

void DmaEngine::execute(const DmaTransfer& t) {
  Transport& tr = world_.transport();
  events::EventStream* ev = world_.events();
  const double t_begin = ev ? ev->now_us() : 0;
  long long piece = std::max<long long>(1, t.session->block_bytes);
  for (long long done = 0; done < t.bytes; done += piece) {
    long long n = std::min(piece, t.bytes - done);
    WindowAddr at{t.remote.segment, t.remote.offset + done};
    if (t.is_put)
      tr.put_async(t.peer, at, t.local + done, n);
    else
      tr.get_async(t.peer, at, t.local + done, n);
  }
  tr.complete_async();
  std::atomic_ref<uint32_t>(*t.session->completion_word()).store(t.seq, std::memory_order_release);
  completed_.fetch_add(1, std::memory_order_relaxed);
  if (ev) ev->transfer_done(rank_, t.session->id, t.seq, t.peer, t.bytes, t_begin);
  // The issuing rank's waiters read the completion word (peers learn of the data through a notify).
  world_.wake(rank_);
}

}  // namespace ptodist::runtime
