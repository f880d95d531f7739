// Internal to the MPI backend: the thread of a process that owns MPI. Other threads hand it work and
// block until it has run, so the backend needs only MPI_THREAD_FUNNELED, and the thread keeps MPI
// progressing while idle (target-side progress for osc pt2pt over TCP).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>

#include "liveness.h"
#include "startup.h"
#include "thread_level.h"

namespace ptodist::runtime {

// The MPI lock: one atomic exchange to take it and a plain release store to give it back, where a
// std::mutex pays a second atomic read-modify-write in unlock (so that it can wake sleepers). Each
// synchronous MPI call of a core (a notify: a few hundred nanoseconds) takes it once, so that RMW is
// several percent of the call. The price: a thread that finds it held polls (spins, then yields, then
// sleeps up to kMaxLockSleep) instead of being woken.
class MpiLock {
 public:
  bool try_lock() {
    return !held_.load(std::memory_order_relaxed) && !held_.exchange(true, std::memory_order_acquire);
  }
  void lock();
  void unlock() { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

class CommThread {
 public:
  // Starts the thread; it calls MPI_Init_thread before serving requests.
  // Starts MPI on the thread and waits for it: at most `startup_timeout` seconds when > 0, after
  // which the process reports the ranks that have not arrived and exits (startup.h).
  explicit CommThread(double startup_timeout = 0);
  // Runs `at_exit` (window frees) and MPI_Finalize on the thread, then joins it.
  ~CommThread();

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // Runs `fn` with MPI to itself (on the communication thread, or on the caller under the MPI lock in
  // direct mode); returns when it has run. Reentrant from the thread itself. Allocates nothing.
  template <typename F>
  void call(F&& fn) {
    call_ref(
        +[](void* f) { (*static_cast<std::remove_reference_t<F>*>(f))(); },
        const_cast<void*>(static_cast<const void*>(&fn)));
  }
  // Direct mode only: runs `fn` under the MPI lock if no one holds it; false (not run) otherwise.
  template <typename F>
  bool try_call(F&& fn) {
    return try_call_ref(
        +[](void* f) { (*static_cast<std::remove_reference_t<F>*>(f))(); },
        const_cast<void*>(static_cast<const void*>(&fn)));
  }
  // True when callers enter MPI themselves (MPI_THREAD_SERIALIZED or better, and not queue-only).
  bool direct() const { return direct_; }
  // True when MPI provides MPI_THREAD_MULTIPLE and the mode asked for it: a caller may make MPI calls
  // without the MPI lock. Only calls that touch no state the lock protects may (see MpiTransport).
  bool multiple() const { return multiple_; }
  // The mode in effect and why it was chosen (thread_level.h), for diagnostics and benchmarks.
  MpiThreadMode mode() const { return mode_; }
  const std::string& mode_reason() const { return mode_reason_; }
  // Which put_async/get_async a core starts itself in direct mode (thread_level.h), decided with the
  // mode, once OMPI_MCA_osc is set.
  const InlineLimitChoice& inline_limit() const { return inline_limit_; }
  // Whether windows may be mapped into shared memory (thread_level.h), decided with the mode.
  const SharedWindowsChoice& shared_windows() const { return shared_windows_; }
  // Makes the thread run its idle step (the idle hook) soon, waking it if it sleeps.
  void kick();
  // Called with MPI held whenever the thread is idle, and by polling cores (window sync, async
  // transfers).
  void set_idle_hook(std::function<void()> hook);
  // The longest an idle thread sleeps between idle steps: short (kMaxIdleSleep) while one-sided
  // operations may need this process to progress them, long when every window is in shared memory
  // and the steps only send heartbeats; a sleeper that wakes takes a CPU the ranks may need.
  void set_progress_needed(bool needed) { progress_needed_.store(needed, std::memory_order_relaxed); }
  // Run on the thread just before MPI_Finalize.
  void set_exit_hook(std::function<void()> hook);
  // From a polling wait: one progress step (MPI_Iprobe, the idle hook) if MPI is free, or, when
  // callers may not enter MPI, keeps the thread polling instead of sleeping.
  void poll();
  bool on_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

  // Seconds a peer may stay silent (no heartbeat) before this rank ends the job naming it; 0: off.
  void set_peer_timeout(double seconds) { liveness_.set_timeout(seconds); }
  // With MPI held (inside call()): completes a nonblocking collective while heartbeats keep flowing
  // and are checked, so a stopped peer ends the job instead of blocking this rank forever.
  void wait_live(MPI_Request& request);

 private:
  struct Request;
  void call_ref(void (*run)(void*), void* fn);
  bool try_call_ref(void (*run)(void*), void* fn);
  void start_mpi();
  void loop();
  void idle_progress();
  void serve(Request* r);

  // When MPI provides MPI_THREAD_SERIALIZED, a caller runs its request itself under mpi_mu_ instead
  // of handing it over (no thread switch on the hot path); with FUNNELED only, or in the funneled
  // mode, every request goes through the queue to this thread.
  bool direct_ = false;
  bool multiple_ = false;
  MpiThreadMode mode_ = MpiThreadMode::Serialized;
  std::string mode_reason_;
  InlineLimitChoice inline_limit_;
  SharedWindowsChoice shared_windows_;
  MpiLock mpi_mu_;                  // held by whoever is inside MPI
  std::atomic<int> contenders_{0};  // callers blocked on mpi_mu_ (direct mode)
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Request*> queue_;
  uint64_t issued_ = 0;              // under mu_
  std::atomic<uint64_t> served_{0};  // the last request that has run
  std::atomic<uint64_t> pokes_{0};   // polls by waiting cores (queue-only mode)
  std::atomic<bool> progress_needed_{true};
  bool stop_ = false;
  bool kicked_ = false;  // under mu_
  std::function<void()> idle_hook_, exit_hook_;
  Liveness liveness_;  // used with MPI held
  std::mutex init_mu_;
  std::condition_variable init_cv_;
  bool started_ = false;
  std::string error_;
  int rank_ = 0, size_ = 1;
  StartupMarks marks_;  // before thread_: the thread marks its arrival
  std::thread thread_;
};

}  // namespace ptodist::runtime
