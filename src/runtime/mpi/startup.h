// Internal to the MPI backend: bounding MPI's start-up. MPI_Init_thread waits for every process of
// the job (Open MPI's start-up fence), and so does the liveness communicator's MPI_Comm_dup, before
// any heartbeat can flow: a rank that never arrives (not started, stopped, crashed before MPI)
// would hang the others there. The process that starts MPI waits for it at most the watchdog time,
// then names the ranks that have not arrived and ends with the watchdog's status.
#pragma once

#include <string>
#include <vector>

namespace ptodist::runtime {

// Which ranks have reached MPI start-up, told apart without MPI: each process leaves a marker
// file in /dev/shm named after the job (PMIX_NAMESPACE) and its rank. Only processes on this
// machine can be seen, so a rank is named only when every rank runs here.
class StartupMarks {
 public:
  StartupMarks();  // from mpirun's environment; inactive outside Open MPI/PMIx
  ~StartupMarks() { leave(); }
  void arrive();  // this process has reached MPI start-up
  void leave();   // removes this process's marker (idempotent)
  // The ranks without a marker; empty when that cannot be told (ranks on other machines, no /dev/shm).
  std::vector<int> missing() const;
  int rank() const { return rank_; }
  bool can_tell() const { return marked_; }  // whether missing() means anything

 private:
  std::string path(int rank) const;
  std::string prefix_;  // "" when inactive
  int rank_ = -1, size_ = 0;
  bool all_local_ = false, marked_ = false;
};

// "watchdog: rank 0: MPI start-up has not completed after 2.0 s: rank 1 has not arrived ...".
std::string startup_report(const StartupMarks& marks, double seconds);

}  // namespace ptodist::runtime
