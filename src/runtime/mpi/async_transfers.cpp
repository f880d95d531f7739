// put_async/get_async on MPI: start as MPI_Rput/MPI_Rget pieces, complete in batches (one
// MPI_Waitall, one flush per target), publish each completion word with release order.
#include "async_transfers.h"

#include <algorithm>
#include <cstring>

namespace ptodist::runtime {
namespace {

// MPI counts are ints: a piece is at most 1 GiB whatever the session's block_bytes.
constexpr long long kMaxPiece = 1LL << 30;

}  // namespace

// Direct mode, small transfer: started by the caller (below CommThread::inline_limit a transfer
// copies in less time than a hand-off to another thread costs, a futex wake and a reschedule; over
// osc pt2pt there is no copy in MPI_Rput to overlap, so every transfer is started by the caller) unless
// earlier ones still wait in the queue (transfers start in submission order). Otherwise queued; the
// communication thread, or a waiting core that gets MPI first, starts it.
void AsyncTransfers::submit(const DmaTransfer& t) {
  outstanding_.fetch_add(1, std::memory_order_acq_rel);
  if (comm_.direct() && t.bytes < comm_.inline_limit().bytes) {
    bool started = false;
    comm_.call([&] {
      // Queued ones leave the queue only with MPI held, so none can be taken meanwhile; one queued
      // by another core meanwhile is unordered with this one anyway.
      if (queued_count_.load(std::memory_order_acquire) != 0) return;
      start_locked(t);
      started = true;
    });
    if (started) return;
  }
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    queued_.push_back(t);
    queued_count_.fetch_add(1, std::memory_order_release);
  }
  comm_.kick();
}

void AsyncTransfers::start_locked(const DmaTransfer& t) {
  Window& w = windows_.at(t.remote.segment);
  if (!w.peers.empty()) {  // shared memory: the copy is the transfer, complete when it returns
    std::byte* remote = w.peers.at(t.peer) + t.remote.offset;
    if (t.is_put)
      std::memcpy(remote, t.local, t.bytes);
    else
      std::memcpy(t.local, remote, t.bytes);
    gets_started_ = gets_started_ || !t.is_put;
    started_.push_back(Started{t.session, t.seq});
    return;
  }
  if (!t.is_put) {
    flush_if_dirty(w);  // our earlier puts must land before we read the window
    gets_started_ = true;
  }
  long long piece = std::clamp<long long>(t.session->block_bytes, 1, kMaxPiece);
  for (long long done = 0; done < t.bytes; done += piece) {
    int n = static_cast<int>(std::min(piece, t.bytes - done));
    MPI_Aint at = t.remote.offset + done;
    MPI_Request req;
    if (t.is_put)
      MPI_Rput(t.local + done, n, MPI_BYTE, t.peer, at, n, MPI_BYTE, w.win, &req);
    else
      MPI_Rget(t.local + done, n, MPI_BYTE, t.peer, at, n, MPI_BYTE, w.win, &req);
    requests_.push_back(req);
  }
  std::pair<int, int> target{t.remote.segment, t.peer};
  if (t.is_put && std::find(targets_.begin(), targets_.end(), target) == targets_.end())
    targets_.push_back(target);
  started_.push_back(Started{t.session, t.seq});
}

void AsyncTransfers::complete_locked() {
  if (started_.empty()) return;
  if (requests_.empty()) {
    // shared memory only: nothing to wait for
  } else if (requests_.size() == 1)
    MPI_Wait(requests_.data(), MPI_STATUS_IGNORE);  // cheaper than a Waitall of one
  else
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (auto [segment, peer] : targets_) MPI_Win_flush(peer, windows_[segment].win);
  // Counted before the completion words are published: a core that sees its get complete and then
  // notifies also sees that there is something to publish.
  if (gets_started_) local_writes_.fetch_add(1);
  gets_started_ = false;
  for (const Started& s : started_)
    std::atomic_ref<uint32_t>(*s.session->completion_word()).store(s.seq, std::memory_order_release);
  long long n = static_cast<long long>(started_.size());
  requests_.clear();
  targets_.clear();
  started_.clear();
  completed_.fetch_add(n, std::memory_order_relaxed);
  outstanding_.fetch_sub(n, std::memory_order_acq_rel);
}

void AsyncTransfers::progress_locked() {
  if (!busy()) return;
  if (queued_count_.load(std::memory_order_acquire) != 0) {
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      taking_.swap(queued_);
      queued_count_.store(0, std::memory_order_release);
    }
    for (const DmaTransfer& t : taking_) start_locked(t);
    taking_.clear();
  }
  complete_locked();
}

void AsyncTransfers::drain() {
  comm_.call([this] { progress_locked(); });
}

void AsyncTransfers::drop_queued() {
  std::lock_guard<std::mutex> lock(queue_mu_);
  outstanding_.fetch_sub(static_cast<long long>(queued_.size()), std::memory_order_acq_rel);
  queued_.clear();
  queued_count_.store(0, std::memory_order_release);
}

}  // namespace ptodist::runtime
