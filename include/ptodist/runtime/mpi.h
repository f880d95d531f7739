// The MPI backend (DESIGN.md §6, docs/mpi.md): one rank per MPI process, windows allocated with
// MPI_Win_allocate, and one communication thread per process that owns every MPI call.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ptodist/runtime/runtime.h"
#include "ptodist/runtime/world.h"

namespace ptodist::runtime {

class CommThread;

// MPI for the life of the process: started once (MPI_Init_thread with MPI_THREAD_FUNNELED on the
// communication thread), finalized when the process exits.
class MpiBackend {
 public:
  // Starts MPI on first use; returns null (with `error`) when MPI cannot start. With
  // `startup_timeout` > 0 (the watchdog time), a start-up that does not complete within it (a peer
  // process that never arrives) is reported, naming the missing ranks, and the process exits with
  // status 3, the watchdog's (docs/mpi.md, "Failures").
  static MpiBackend* start(std::string* error, double startup_timeout = 0);
  // The running backend, or null before start().
  static MpiBackend* get();

  int rank() const;
  int size() const;
  // A transport over this process's windows (world_size() == size(), local_rank() == rank()).
  std::unique_ptr<Transport> make_transport();
  CommThread& comm() { return *comm_; }
  // Runs `fn` on the communication thread, the one thread that may call MPI (benchmarks' raw loops).
  void run(const std::function<void()>& fn);

  // Host-side collectives (every process calls them in the same order).
  void barrier();
  // True on every process when `ok` holds on every process.
  bool all_ok(bool ok);

  ~MpiBackend();

 private:
  MpiBackend() = default;
  std::unique_ptr<CommThread> comm_;
};

// True when this process was launched by mpirun/mpiexec (OpenMPI, MPICH or a PMI launcher).
bool launched_by_mpi();

// After a round on the MPI backend, every process holds only its own rank's part of the outputs.
// Collects them on rank 0: slice r of a rank-sliced Out/InOut parameter (`y[r]` in the host) comes
// from process r; any other output element from the lowest rank that changed it from its value in
// `before` (the arguments as they were before the round). Returns "" or a one-line reason.
std::string gather_host_outputs(MpiBackend& mpi, const ir::FunctionNode& host,
                                std::map<std::string, HostTensor>& args,
                                const std::map<std::string, HostTensor>& before);

}  // namespace ptodist::runtime
