// Running a program on N in-process ranks: host tensors in, host tensors out, one round at a time,
// with a watchdog that turns a hang into a report of every blocked core (DESIGN.md §6).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/runtime/host_dims.h"
#include "ptodist/runtime/value.h"
#include "ptodist/support/profile.h"

namespace ptodist::runtime {

// Host tensor bytes from calloc, which hands out fresh zero pages for large sizes without writing
// them: an output of gigabytes that a run (or `ptodist predict`, which computes no tile data) never
// writes is never paged in. resize() leaves new elements as allocated (zero: calloc), so a tensor's
// bytes are zero until written as long as it is resized only from empty, as host tensors are.
template <class T>
struct ZeroPageAllocator {
  using value_type = T;
  ZeroPageAllocator() = default;
  template <class U>
  ZeroPageAllocator(const ZeroPageAllocator<U>&) {}  // NOLINT: rebinding, as allocators do
  T* allocate(size_t n) {
    void* p = std::calloc(n ? n : 1, sizeof(T));
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { std::free(p); }
  template <class U>
  void construct(U*) noexcept {}  // value-initialised already: calloc zeroed it
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
  bool operator==(const ZeroPageAllocator&) const { return true; }
};
using HostBytes = std::vector<std::byte, ZeroPageAllocator<std::byte>>;

// A dense row-major host tensor: the host orchestrator's parameters (what .npy files hold).
struct HostTensor {
  ir::DType dtype = ir::DType::FP32;
  std::vector<long long> shape;
  HostBytes data;
  // When set, the bytes live in memory the caller owns (a numpy array, a torch tensor: the Python entry
  // point runs on them in place) and `data` is unused; dense row-major either way.
  std::byte* external = nullptr;

  long long numel() const;
  std::byte* bytes() { return external ? external : data.data(); }
  static HostTensor zeros(ir::DType dtype, std::vector<long long> shape);
};

class Transport;
namespace events {
class EventStream;
}

// A host callback: a SubWorker method (host Python) that the interpreter embedding the runtime runs
// when the host orchestrator calls it, after every chip orchestration queued before the call has
// finished. `args` are its tensors in host memory, dense or strided. Returns "" or the error that
// ends the round (reported at the call).
using HostCallback =
    std::function<std::string(const ir::FunctionNode& fn, const std::vector<TensorView>& args)>;

struct RunOptions {
  int ranks = 2;
  ChipProfile profile;
  double watchdog_seconds = 10;  // no progress for this long ends the run with a report
  bool persistent = false;       // keep window contents between rounds (the program resets signals)
  // The transport (see WorldOptions); null: in-process. With an MPI transport this process runs only
  // its own rank's chip orchestration (docs/mpi.md).
  std::function<std::unique_ptr<Transport>()> make_transport;
  // Fast: ranks and cores run in parallel. Check: one core at a time under a scheduler seeded with
  // `seed`, tracking happens-before; a hazard or deadlock ends the round with Status::Hazard
  // (DESIGN.md §6, docs/checking.md). In-process transport only.
  enum class Mode { Fast, Check };
  Mode mode = Mode::Fast;
  uint64_t seed = 1;
  // The op-event stream observers subscribe to (include/ptodist/runtime/events.h); null: none. It
  // must outlive the Runtime.
  events::EventStream* events = nullptr;
  // Runs SubWorker methods (the Python entry point); null: a call of one is a run-time error.
  HostCallback host_callback;
};

struct RoundResult {
  enum class Status { Ok, Error, Hang, Hazard };  // Hazard: check mode's report (also deadlocks)
  Status status = Status::Ok;
  std::string message;               // the formatted error, the watchdog report or check's report
  double seconds = 0;                // wall time of the round
  std::vector<double> rank_seconds;  // per rank: its chip orchestration, start to end
  uint64_t schedule_digest = 0;      // check mode: equal digests mean the same interleaving
};

class World;
struct RankExec;
struct RunEnv;
struct DecodedProgram;
class Watchdog;
class WorkerPool;
class RankPlacement;

class Runtime {
 public:
  // `program` is specialized (factory parameters bound); tile level after the pipeline, or tensor
  // level (put/put_async are then interpreted directly, with staging and scratch made at run time).
  Runtime(ir::Program program, RunOptions options);
  ~Runtime();

  // The host orchestrator (level HOST); null when the program has none.
  const ir::FunctionNode* host_function() const;
  // One-line reason why `args` cannot run (missing, shape/dtype mismatch, rank count), or "".
  std::string check_args(const std::map<std::string, HostTensor>& args) const;
  // Checks `args` like check_args and binds every dynamic dim of the host parameters from them.
  std::string bind_args(const std::map<std::string, HostTensor>& args, DimValues& dims) const;
  // Runs the host orchestrator once over `args` (Out/InOut tensors are written in place).
  RoundResult run(std::map<std::string, HostTensor>& args);

 private:
  void run_ranks(RunEnv& env);
  void run_ranks_checked(RunEnv& env);
  void run_rank(RunEnv& env, int rank);
  // Runs the chip orchestrations queued so far on every rank to completion, then empties the queues.
  void run_queued(RunEnv& env, bool& transport_begun);

  ir::Program program_;
  RunOptions options_;
  std::unique_ptr<World> world_;
  std::vector<std::unique_ptr<RankExec>> ranks_;   // core pools and buffers, kept across rounds
  std::unique_ptr<WorkerPool> rank_threads_;       // fast mode: every rank's orchestration but one
  std::unique_ptr<Watchdog> watchdog_;             // after world_: it is stopped first
  std::map<std::string, size_t> rank_dims_;        // host parameters' dims indexed by rank (found once)
  std::unique_ptr<const DecodedProgram> decoded_;  // every function decoded once (runtime/decoded.h)
  // What a round shares (exec.h), kept across rounds: its set-up and tear-down would otherwise be
  // a few allocations and a few kilobytes of code that run, from cold caches, once per round.
  std::unique_ptr<RunEnv> env_;
  std::unique_ptr<RankPlacement> placement_;  // fast mode: whether a round binds rank threads
  bool first_round_ = true;
  int round_ = 0;
};

// The shape of host parameter `p` with dynamic dims resolved from `args` (and `ranks` for a dim
// indexed by the rank loop); nullopt when a dim cannot be resolved.
std::optional<std::vector<long long>> resolve_param_shape(const ir::Param& p, int ranks,
                                                          const std::map<std::string, long long>& dyn);

}  // namespace ptodist::runtime
