// The world: N ranks in one process, each with a chip profile, a symmetric window heap, signal
// cells, a DMA engine and a registry of running cores for the watchdog; and the transport interface
// through which ranks touch each other's windows (inproc here; an MPI transport can implement it too).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptodist/runtime/value.h"
#include "ptodist/support/profile.h"
#include "ptodist/support/source.h"

namespace ptodist::runtime {

// A user error found while running (bad offsets, over-budget submissions, ...): a located message.
struct RunError {
  SourceSpan span;
  std::string message;
};

// Thrown out of a blocked or running core when the run is being torn down (error or watchdog).
struct RunAborted {};

// One-sided access to the ranks' windows. Windows are named by WindowAddr so a transport that cannot
// map peer memory (MPI) implements the same calls.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual int world_size() const = 0;
  // Allocates one symmetric segment of `bytes` on every rank (zeroed); returns its index.
  virtual int alloc_segment(long long bytes) = 0;
  virtual void zero_segments() = 0;
  // Direct pointer to `addr` in `rank`'s window, or null where memory is not mapped (remote process).
  virtual std::byte* window_ptr(int rank, WindowAddr addr) = 0;
  virtual void put(int peer, WindowAddr dst, const std::byte* src, long long bytes) = 0;
  virtual void get(int peer, WindowAddr src, std::byte* dst, long long bytes) = 0;
  // Element-wise atomic add of `count` elements of `dtype` into the peer's window.
  virtual void accumulate(int peer, WindowAddr dst, const std::byte* src, long long count,
                          ir::DType dtype) = 0;
  // Atomically adds `value` to (or sets) the INT32 cell; the caller wakes the peer's waiters.
  virtual void signal(int peer, WindowAddr cell, int32_t value, bool add) = 0;

  // Hooks for transports whose ranks live in other processes (MPI); the in-process defaults do nothing.
  // The rank this process runs, or -1 when every rank runs here.
  virtual int local_rank() const { return -1; }
  // True when remote writes arrive without a wake(): blocked waits must poll their cells.
  virtual bool needs_polling() const { return false; }
  // How long a peer process may stay silent before the run ends naming it (MPI: heartbeats); 0 means
  // unbounded. In-process ranks cannot stop one by one: nothing to do.
  virtual void set_peer_timeout(double /*seconds*/) {}
  // Called between the checks of a polling wait: lets MPI progress (osc pt2pt moves one-sided data
  // only inside MPI calls on the target).
  virtual void poll() {}
  // The DMA engine's pieces: may complete later, at the next complete_async() of the same thread.
  virtual void put_async(int peer, WindowAddr dst, const std::byte* src, long long bytes) {
    put(peer, dst, src, bytes);
  }
  virtual void get_async(int peer, WindowAddr src, std::byte* dst, long long bytes) {
    get(peer, src, dst, bytes);
  }
  // Completes every put_async/get_async issued so far: the data is in the peer's window (or here).
  virtual void complete_async() {}
  // An op that may store into this rank's windows through a pointer (or have data land there) runs
  // between these two calls. A transport whose signal must publish such stores (MPI: MPI_Win_sync)
  // may skip that step when no such op ran since the last signal and none is running.
  virtual void begin_local_stores() {}
  virtual void end_local_stores() {}
  // Round boundaries: every rank's windows are ready before any rank starts; every transfer has
  // landed before outputs are read. `rank_seconds` comes back with every rank's figure.
  virtual void begin_round() {}
  virtual void end_round(std::vector<double>& rank_seconds) {}
};

std::unique_ptr<Transport> make_inproc_transport(int ranks);

// What a blocked core is waiting for, kept for the watchdog report.
struct BlockInfo {
  std::string op;  // "pld.system.wait"
  SourceSpan span;
  std::string cell;                   // "signal[1, 3]" or "event #4 of session sync_id=0"
  const int32_t* watch = nullptr;     // the cell, read when the report is printed
  const uint32_t* watch_u = nullptr;  // a completion word
  long long expected = 0;
  std::string cmp;  // "==" or ">="
  // Check mode's deadlock report: whether the blocked core could later notify `rank` (its notifies'
  // peers evaluated in its frame; true when one cannot be evaluated). Unset: assume it could.
  std::function<bool(int rank)> may_notify = nullptr;
};

// A running core (or an orchestrator thread): progress counter and what it blocks on, if anything.
struct CoreState {
  int rank = 0;
  int actor = -1;  // its actor in check mode (check::ActorId); -1 in fast mode
  // What runs here, for reports, in parts: starting a block or an orchestrator builds no string.
  std::string_view function;  // the kernel's or orchestrator's name (owned by the program)
  bool orchestrator = false;
  bool cube = false;
  int core = -1;  // the core a block got; -1 until it has one
  int block_idx = 0;
  int block_num = 1;
  uint64_t event_actor = 0;  // its actor id in the op-event stream (0 when nobody observes)
  // "vector core 3 (block 1/4 of comm_local_shard)", "orchestrator (chip_orch)"
  std::string name() const;
  std::atomic<uint64_t> progress{0};
  std::atomic<bool> blocked{false};
  BlockInfo block;  // valid while `blocked`; written before blocked is set
};

struct WorldOptions {
  int ranks = 2;
  ChipProfile profile;
  // Makes the transport (the MPI backend passes one); null: the in-process transport.
  std::function<std::unique_ptr<Transport>()> make_transport;
  // Check mode (DESIGN.md §6): one core at a time under a seeded scheduler, with happens-before
  // tracking; inproc transport only.
  bool check = false;
  uint64_t seed = 0;
  // Whether the DMA engines defer transfers to the rank's cores (dma_engine.cpp); unset: when the
  // ranks are at least as many as the process's CPUs.
  std::optional<bool> defer_dma;
};

class DmaEngine;
namespace events {
class EventStream;
}
namespace check {
class Scheduler;
class HappensBefore;
}  // namespace check

class World {
 public:
  explicit World(const WorldOptions& options);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int ranks() const { return ranks_; }
  const ChipProfile& profile() const { return profile_; }
  Transport& transport() { return *transport_; }
  DmaEngine& dma(int rank) { return *dma_[rank]; }
  // Check mode's scheduler and happens-before tracker; both null in fast mode.
  check::Scheduler* scheduler() { return scheduler_.get(); }
  check::HappensBefore* hb() { return hb_.get(); }
  // The op-event stream (include/ptodist/runtime/events.h), or null when nobody observes the run.
  events::EventStream* events() const { return events_; }
  void set_events(events::EventStream* events) {
    events_ = events;
    observed_ = events_ || hb_;
  }
  // Whether ops go through observed_op: an event observer listens, or check mode runs.
  bool observed() const { return observed_; }

  // Symmetric window heap: every alloc has the same segment id (and logical offset) on every rank.
  WindowBufferValue alloc_window(long long bytes, std::string name);
  void zero_windows() { transport_->zero_segments(); }
  // Segments survive rounds; a new round's host orchestrator reuses them in allocation order.
  void restart_allocation() { next_segment_ = 0; }

  // Blocking without burning CPU: wait until `ready()` holds; wakes on wake(rank) or abort. Throws
  // RunAborted when the run is torn down. `core` records what it waits on for the watchdog.
  void block_until(int rank, CoreState* core, const BlockInfo& info, const std::function<bool()>& ready);
  void wake(int rank);
  void wake_all();
  // block_until for transports that need polling: checks `ready` with a spin, then yields and sleeps
  // with backoff (mpi/poll_wait.cpp).
  void poll_until(int rank, CoreState* core, const BlockInfo& info, const std::function<bool()>& ready);
  // block_until of an actor under the check scheduler.
  void checked_block_until(CoreState* core, const BlockInfo& info, const std::function<bool()>& ready);

  // First error wins; the run aborts and every blocked core is woken.
  void fail(const RunError& error);
  void abort_for_hang(std::string report);
  // Check mode found a hazard or a deadlock: `report` is the formatted diagnostic; the run ends with
  // exit code 3 like a hang. The first report wins.
  void report_hazard(std::string report);
  bool hazard() const { return hazard_; }
  bool aborted() const { return aborted_.load(std::memory_order_relaxed); }
  void check_abort() const {
    if (aborted()) throw RunAborted{};
  }
  bool has_error() const;
  RunError error() const;
  bool hung() const { return hung_; }
  const std::string& hang_report() const { return hang_report_; }
  void reset_status();

  // Core registry for the watchdog.
  void register_core(CoreState* core);
  void unregister_core(CoreState* core);
  uint64_t total_progress();
  std::string blocked_report();
  void note_progress() { misc_progress_.fetch_add(1, std::memory_order_relaxed); }

 private:
  void end_with_report(std::string report, bool hazard);

  int ranks_;
  ChipProfile profile_;
  std::unique_ptr<Transport> transport_;
  std::vector<std::unique_ptr<DmaEngine>> dma_;
  std::vector<WindowBufferValue> segments_;
  size_t next_segment_ = 0;
  std::unique_ptr<std::atomic<uint32_t>[]> generation_;  // one per rank, bumped by wake()
  std::atomic<bool> aborted_{false};
  mutable std::mutex mu_;
  bool has_error_ = false;
  RunError error_;
  bool hung_ = false;
  bool hazard_ = false;
  std::string hang_report_;
  std::vector<CoreState*> cores_;
  std::atomic<uint64_t> misc_progress_{0};
  std::unique_ptr<check::Scheduler> scheduler_;
  std::unique_ptr<check::HappensBefore> hb_;
  events::EventStream* events_ = nullptr;
  bool observed_ = false;
};

}  // namespace ptodist::runtime
