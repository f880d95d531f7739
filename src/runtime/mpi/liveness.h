// Internal to the MPI backend: heartbeats between the ranks' communication threads, so that a rank
// whose process stops responding (SIGSTOP, a crash mpirun has not noticed, a hang inside MPI) is named
// by the others within the watchdog time, instead of leaving them blocked in an MPI call.
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <vector>

namespace ptodist::runtime {

class Liveness {
 public:
  // With MPI initialised, on the communication thread: a private communicator and one receive per
  // peer. Heartbeats flow from then on; they are checked only while a timeout is set.
  void start(int rank, int size);
  // Seconds a peer may stay silent before the run is ended; 0 turns the check off. Any thread.
  void set_timeout(double seconds);
  // With MPI held: sends a heartbeat when one is due, takes those that arrived, and ends the job
  // (report on stderr, MPI_Abort with the watchdog's exit code 3) when a peer has been silent too long.
  void step();
  // Before MPI_Finalize: tells the peers this rank is leaving (so its silence is not a hang) and
  // releases the receives.
  void stop();

 private:
  using Clock = std::chrono::steady_clock;
  void take_arrivals(Clock::time_point now);
  void check(Clock::time_point now, double timeout);

  bool started_ = false;
  int rank_ = 0, size_ = 1;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<MPI_Request> recv_;
  std::vector<int> inbox_;
  std::vector<Clock::time_point> last_seen_;
  std::vector<bool> departed_;
  Clock::time_point next_send_{};
  std::atomic<double> timeout_{0};
  std::atomic<bool> reset_{false};  // a new timeout: every peer counts as just seen
  int heartbeat_ = 1, goodbye_ = 0;
};

}  // namespace ptodist::runtime
