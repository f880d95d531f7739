// Heartbeats of the MPI backend: every rank's communication thread sends a small message to each peer
// every kPeriod and re-posts one receive per peer; a peer silent for longer than the timeout (the
// watchdog's) is reported by name and the job ends, as a hang does (exit 3).
#include "liveness.h"

#include <cstdio>

namespace ptodist::runtime {
namespace {

constexpr auto kPeriod = std::chrono::milliseconds(100);
constexpr int kTag = 1;
constexpr int kExitHang = 3;  // as the watchdog's report (tools/ptodist, docs/runtime.md)

}  // namespace

void Liveness::start(int rank, int size) {
  rank_ = rank;
  size_ = size;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm_);  // heartbeats never match the backend's own receives or probes
  recv_.assign(size, MPI_REQUEST_NULL);
  inbox_.assign(size, 0);
  last_seen_.assign(size, Clock::now());
  departed_.assign(size, false);
  for (int p = 0; p < size; ++p)
    if (p != rank) MPI_Irecv(&inbox_[p], 1, MPI_INT, p, kTag, comm_, &recv_[p]);
  started_ = true;
}

void Liveness::set_timeout(double seconds) {
  reset_.store(true, std::memory_order_relaxed);
  timeout_.store(seconds > 0 ? seconds : 0, std::memory_order_release);
}

void Liveness::take_arrivals(Clock::time_point now) {
  for (int p = 0; p < size_; ++p) {
    if (p == rank_ || recv_[p] == MPI_REQUEST_NULL) continue;
    for (int done = 0;;) {
      MPI_Test(&recv_[p], &done, MPI_STATUS_IGNORE);
      if (!done) break;
      last_seen_[p] = now;
      if (inbox_[p] == goodbye_) {
        departed_[p] = true;
        break;  // recv_[p] is MPI_REQUEST_NULL now: nothing more comes from p
      }
      MPI_Irecv(&inbox_[p], 1, MPI_INT, p, kTag, comm_, &recv_[p]);
    }
  }
}

void Liveness::check(Clock::time_point now, double timeout) {
  for (int p = 0; p < size_; ++p) {
    if (p == rank_ || departed_[p]) continue;
    double silent = std::chrono::duration<double>(now - last_seen_[p]).count();
    if (silent < timeout) continue;
    std::fprintf(stderr,
                 "watchdog: rank %d: rank %d has not responded for %.1f s (its process is stopped, crashed "
                 "or hung); ending the run\n",
                 rank_, p, silent);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, kExitHang);
  }
}

void Liveness::step() {
  if (!started_) return;
  Clock::time_point now = Clock::now();
  if (now >= next_send_) {
    next_send_ = now + kPeriod;
    for (int p = 0; p < size_; ++p) {
      if (p == rank_) continue;
      MPI_Request r;
      MPI_Isend(&heartbeat_, 1, MPI_INT, p, kTag, comm_, &r);
      MPI_Request_free(&r);  // a small message completes on its own; nothing waits for it
    }
  }
  take_arrivals(now);
  double timeout = timeout_.load(std::memory_order_acquire);
  if (reset_.exchange(false, std::memory_order_relaxed)) last_seen_.assign(size_, now);
  if (timeout > 0) check(now, timeout);
}

void Liveness::stop() {
  if (!started_) return;
  started_ = false;
  for (int p = 0; p < size_; ++p) {
    if (p == rank_) continue;
    MPI_Send(&goodbye_, 1, MPI_INT, p, kTag, comm_);
    if (recv_[p] != MPI_REQUEST_NULL) {
      MPI_Cancel(&recv_[p]);
      MPI_Wait(&recv_[p], MPI_STATUS_IGNORE);
    }
  }
}

}  // namespace ptodist::runtime
