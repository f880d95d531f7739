// Internal to the MPI backend: which thread level to ask MPI_Init_thread for, and from which size a
// put_async/get_async is handed to the communication thread, decided from the environment before MPI
// starts (afterwards the level cannot change, and MPI cannot be asked which one-sided component it
// will pick until a window exists, nor does a window say so).
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

struct InlineLimitChoice {
  long long bytes = 0;  // a direct-mode transfer of fewer bytes is started by the issuing core
  std::string why;      // one line for benchmark output
  std::string error;    // non-empty: PTODIST_MPI_INLINE_BYTES is not a byte count; MPI must not start
};

// PTODIST_MPI_INLINE_BYTES when set; otherwise unlimited (the core starts every transfer) when
// OMPI_MCA_osc may select osc pt2pt, whose MPI_Rput only queues a send that progress moves later, so
// a hand-off buys no overlap and costs a wake-up; unlimited too when this machine runs at least as
// many ranks (OMPI_COMM_WORLD_LOCAL_SIZE) as it has online CPUs (`cpus`): the communication thread
// then has no CPU of its own to copy on, and a hand-off only adds a wake-up and a reschedule; else
// 256 KiB: osc rdma and osc sm copy the data inside MPI_Rput, and handing a large copy to the
// communication thread lets it overlap the core.
InlineLimitChoice choose_inline_limit(const std::function<const char*(const char*)>& getenv, long cpus);

// Whether windows are mapped into shared memory (MPI_Win_allocate_shared) when every rank runs on
// this machine, so that a put is a memcpy and a notify an atomic store (docs/mpi.md). From
// PTODIST_MPI_SHM (auto, 1 or 0) and OMPI_MCA_osc: osc sm serves shared windows, so a setting that
// rules it out (`--mca osc pt2pt`) keeps the message path. Whether the ranks share a machine is
// decided later, by MPI_Comm_split_type.
struct SharedWindowsChoice {
  bool wanted = false;
  std::string why;    // one line for benchmark output
  std::string error;  // non-empty: a bad PTODIST_MPI_SHM; MPI must not start
};

SharedWindowsChoice choose_shared_windows(const std::function<const char*(const char*)>& getenv);

}  // namespace ptodist::runtime
