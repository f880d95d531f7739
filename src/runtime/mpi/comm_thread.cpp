// The communication thread: initialises MPI, runs the requests other threads hand it in FIFO order,
// and while idle keeps MPI progressing, spinning briefly and then sleeping with backoff.
#include "comm_thread.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

namespace ptodist::runtime {
namespace {

// Idle iterations that poll without sleeping, then the sleep grows to kMaxIdleSleep. The cap bounds
// the latency a peer sees when its one-sided operation needs this process to progress (osc pt2pt);
// the spin keeps back-to-back requests (a put, then a notify) fast.
constexpr int kIdleSpins = 64;
constexpr auto kMaxIdleSleep = std::chrono::microseconds(200);
// With every window in shared memory the idle step only keeps heartbeats flowing (every 100 ms), and
// its wake-ups cost the ranks CPU time: a 4-rank barrier on 2 CPUs took 23-29 us a call with 200 us
// sleeps and 16-18 us with 5 ms ones (MPI's own: 12 us).
constexpr auto kMaxIdleSleepShared = std::chrono::milliseconds(5);

inline void cpu_relax() {
  __builtin_ia32_pause();
}

// A held MPI lock is usually released within microseconds (one MPI call), but a collective (a
// barrier, the end of a round) holds it as long as the slowest rank takes: spin, yield, then sleep,
// the sleep capped so that a waiter notices the release soon.
constexpr int kLockSpins = 128;
constexpr int kLockYields = 64;
constexpr auto kMaxLockSleep = std::chrono::microseconds(20);

constexpr int kStartupHangExit = 3;  // the watchdog's exit status (docs/runtime.md)
constexpr double kMinStartupSeconds = 10;
constexpr int kStartupPatience = 5;

}  // namespace

void MpiLock::lock() {
  for (int i = 0; !try_lock(); ++i) {
    if (i < kLockSpins) {
      cpu_relax();
    } else if (i < kLockSpins + kLockYields) {
      std::this_thread::yield();
    } else {
      auto us = std::chrono::microseconds(i - kLockSpins - kLockYields + 1);
      std::this_thread::sleep_for(std::min<std::chrono::microseconds>(us, kMaxLockSleep));
    }
  }
}

struct CommThread::Request {
  void (*run)(void*);
  void* fn;
  uint64_t seq = 0;
  std::exception_ptr error;
};

CommThread::CommThread(double startup_timeout) : thread_([this] { loop(); }) {
  std::unique_lock<std::mutex> lock(init_mu_);
  if (startup_timeout <= 0) {
    init_cv_.wait(lock, [&] { return started_; });
    return;
  }
  // A missing rank is named after the watchdog time, at least kMinStartupSeconds (processes are not
  // launched at the same moment, and MPI's start-up alone takes seconds on a loaded machine). When
  // every rank has arrived and MPI is merely slow, it gets kStartupPatience times as long.
  double limit = std::max(startup_timeout, kMinStartupSeconds), waited = 0;
  for (int step = 0; step <= kStartupPatience; ++step) {
    if (init_cv_.wait_for(lock, std::chrono::duration<double>(limit), [&] { return started_; })) return;
    waited += limit;
    if (!marks_.missing().empty() || !marks_.can_tell()) break;
  }
  // The thread is inside MPI_Init_thread or MPI_Comm_dup, which only the missing rank can end: no
  // MPI call can report it (MPI_Abort needs MPI started), so this process leaves and mpirun ends
  // the others.
  std::fprintf(stderr, "%s\n", startup_report(marks_, waited).c_str());
  std::fflush(stderr);
  marks_.leave();
  std::_Exit(kStartupHangExit);
}

CommThread::~CommThread() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void CommThread::call_ref(void (*run)(void*), void* fn) {
  if (on_thread()) {
    run(fn);
    return;
  }
  if (direct_) {
    std::unique_lock<MpiLock> lock(mpi_mu_, std::try_to_lock);
    if (!lock) {
      // Tell the idle thread to stay out: it would otherwise take the lock again as soon as it
      // releases it, before this thread has woken up (over TCP each idle step polls sockets).
      contenders_.fetch_add(1, std::memory_order_relaxed);
      lock.lock();
      contenders_.fetch_sub(1, std::memory_order_relaxed);
    }
    run(fn);
    return;
  }
  Request r{run, fn, 0, nullptr};
  {
    std::lock_guard<std::mutex> lock(mu_);
    r.seq = ++issued_;
    queue_.push_back(&r);
  }
  cv_.notify_one();
  // Requests finish in order, so `served_` reaching our number means ours ran. Spin a little first:
  // most requests (a put, a flush) take microseconds, less than a futex sleep and wake.
  for (int i = 0; i < 200 && served_.load(std::memory_order_acquire) < r.seq; ++i) cpu_relax();
  for (uint64_t s = served_.load(std::memory_order_acquire); s < r.seq;
       s = served_.load(std::memory_order_acquire))
    served_.wait(s, std::memory_order_acquire);
  if (r.error) std::rethrow_exception(r.error);
}

bool CommThread::try_call_ref(void (*run)(void*), void* fn) {
  std::unique_lock<MpiLock> lock(mpi_mu_, std::try_to_lock);
  if (!lock) return false;
  run(fn);
  return true;
}

void CommThread::kick() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    kicked_ = true;
  }
  cv_.notify_one();
}

void CommThread::set_idle_hook(std::function<void()> hook) {
  call([&] { idle_hook_ = std::move(hook); });
}

void CommThread::set_exit_hook(std::function<void()> hook) {
  call([&] { exit_hook_ = std::move(hook); });
}

void CommThread::serve(Request* r) {
  try {
    std::lock_guard<MpiLock> lock(mpi_mu_);
    r->run(r->fn);
  } catch (...) {
    r->error = std::current_exception();
  }
  served_.store(r->seq, std::memory_order_release);
  served_.notify_all();
}

// Progress for components that move data only inside MPI calls (osc pt2pt): an Iprobe enters the
// progress engine; the hook syncs the windows so polling cores see what arrived.
void CommThread::idle_progress() {
  if (contenders_.load(std::memory_order_relaxed) != 0) return;  // a caller waits for MPI
  std::unique_lock<MpiLock> lock(mpi_mu_, std::try_to_lock);
  if (!lock) return;  // a caller is inside MPI: it makes progress itself
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  if (idle_hook_) idle_hook_();
  liveness_.step();
}

void CommThread::wait_live(MPI_Request& request) {
  for (int i = 0, done = 0;; ++i) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    liveness_.step();
    // A collective waits as long as the slowest rank: back off as the idle loop does, so a rank
    // waiting for a stopped or slow peer sleeps instead of spinning in MPI.
    if (i < kIdleSpins)
      cpu_relax();
    else
      std::this_thread::sleep_for(std::min<std::chrono::microseconds>(
          kMaxIdleSleep, std::chrono::microseconds(2 * (i - kIdleSpins + 1))));
  }
}

void CommThread::poll() {
  if (direct_)
    idle_progress();
  else
    pokes_.fetch_add(1, std::memory_order_relaxed);
}

// The level comes from choose_thread_mode: MULTIPLE only where the one-sided component accepts it
// (osc pt2pt, the TCP path, refuses to create windows under it), else SERIALIZED (callers enter MPI
// themselves, one at a time), or FUNNELED for the queue alone.
void CommThread::start_mpi() {
  auto getenv = [](const char* name) { return std::getenv(name); };
  ThreadModeChoice choice = choose_thread_mode(getenv);
  inline_limit_ = choose_inline_limit(getenv, sysconf(_SC_NPROCESSORS_ONLN));
  shared_windows_ = choose_shared_windows(getenv);
  int provided = MPI_THREAD_SINGLE;
  marks_.arrive();  // before MPI_Init_thread, which waits for every process
  if (!choice.error.empty()) {
    error_ = choice.error;
  } else if (!inline_limit_.error.empty()) {
    error_ = inline_limit_.error;
  } else if (!shared_windows_.error.empty()) {
    error_ = shared_windows_.error;
  } else if (MPI_Init_thread(nullptr, nullptr, mpi_thread_level(choice.mode), &provided) != MPI_SUCCESS) {
    error_ = "MPI_Init_thread failed";
  } else if (provided < MPI_THREAD_FUNNELED) {
    error_ = "the MPI library provides only MPI_THREAD_SINGLE; the mpi backend needs MPI_THREAD_FUNNELED";
  } else {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    // A library that grants less than asked falls back to the next mode down.
    mode_ = choice.mode;
    if (mode_ == MpiThreadMode::Multiple && provided < MPI_THREAD_MULTIPLE) mode_ = MpiThreadMode::Serialized;
    if (mode_ == MpiThreadMode::Serialized && provided < MPI_THREAD_SERIALIZED)
      mode_ = MpiThreadMode::Funneled;
    mode_reason_ = choice.why;
    if (mode_ != choice.mode) mode_reason_ += "; the library provides less";
    direct_ = mode_ != MpiThreadMode::Funneled;
    multiple_ = mode_ == MpiThreadMode::Multiple;
    liveness_.start(rank_, size_);
    // Every rank has arrived once the collective MPI_Comm_dup above has completed here.
    marks_.leave();
  }
  std::lock_guard<std::mutex> lock(init_mu_);
  started_ = true;
  init_cv_.notify_all();
}

void CommThread::loop() {
  start_mpi();
  int idle = 0;
  uint64_t seen_pokes = 0;
  while (true) {
    Request* r = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (queue_.empty() && !stop_ && idle >= kIdleSpins) {
        std::chrono::microseconds cap = progress_needed_.load(std::memory_order_relaxed)
                                            ? kMaxIdleSleep
                                            : std::chrono::microseconds(kMaxIdleSleepShared);
        auto sleep =
            std::min<std::chrono::microseconds>(cap, std::chrono::microseconds(2 * (idle - kIdleSpins + 1)));
        cv_.wait_for(lock, sleep, [&] { return stop_ || kicked_ || !queue_.empty(); });
      }
      if (kicked_) idle = 0;  // work was handed over outside the queue (async transfers)
      kicked_ = false;
      if (!queue_.empty()) {
        r = queue_.front();
        queue_.pop_front();
      } else if (stop_) {
        break;
      }
    }
    if (r) {
      serve(r);
      idle = 0;
    } else if (ok()) {
      idle_progress();
      // A core polling for a remote write keeps this thread awake (it is the one that progresses).
      uint64_t p = pokes_.load(std::memory_order_relaxed);
      idle = p != seen_pokes ? 0 : idle + 1;
      seen_pokes = p;
    }
  }
  if (exit_hook_) exit_hook_();
  if (ok()) {
    liveness_.stop();
    MPI_Finalize();
  }
}

}  // namespace ptodist::runtime
