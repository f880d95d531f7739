// Internal to the MPI backend: which thread level to ask MPI_Init_thread for, decided from the
// environment before MPI starts (afterwards the level cannot change, and MPI cannot be asked which
// one-sided component it will pick until a window exists).
#pragma once

#include <functional>
#include <string>

namespace ptodist::runtime {

enum class MpiThreadMode {
  Funneled,    // every MPI call is handed to the communication thread (queue only)
  Serialized,  // callers enter MPI themselves, one at a time, under the process's MPI lock
  Multiple,    // as Serialized, but a notify calls MPI without the lock (MPI_THREAD_MULTIPLE)
};

struct ThreadModeChoice {
  MpiThreadMode mode = MpiThreadMode::Serialized;
  std::string why;    // one line for diagnostics and benchmark output
  std::string error;  // non-empty: a bad PTODIST_MPI_THREADS / PTODIST_MPI_FUNNEL; MPI must not start
};

// Reads PTODIST_MPI_THREADS (auto | funneled | serialized | multiple), PTODIST_MPI_FUNNEL=1 (the same
// as funneled) and, for `auto`, what OpenMPI's mpirun exports: Multiple only when every rank runs on
// this machine (OMPI_COMM_WORLD_LOCAL_SIZE == OMPI_COMM_WORLD_SIZE, so osc rdma or osc sm serves the
// windows over shared memory) and OMPI_MCA_osc cannot select osc pt2pt, which refuses to create
// windows under MPI_THREAD_MULTIPLE; Serialized otherwise. `getenv` returns null for an unset name.
ThreadModeChoice choose_thread_mode(const std::function<const char*(const char*)>& getenv);

// The MPI_THREAD_* constant to request for `mode`.
int mpi_thread_level(MpiThreadMode mode);
const char* thread_mode_name(MpiThreadMode mode);

}  // namespace ptodist::runtime
