// Blocking waits for transports whose remote writes arrive without a wake() (MPI): the core polls its
// own cell, spinning for a bounded time, then yielding, then sleeping with a growing, capped
// backoff, so a long wait costs little CPU and the watchdog still sees it blocked.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "ptodist/runtime/world.h"

namespace ptodist::runtime {
namespace {

using Clock = std::chrono::steady_clock;

// A signal or a small transfer usually lands within microseconds; a waiter that gives its CPU away
// sooner than that pays a reschedule (tens of microseconds on a loaded machine) for each wait. Past
// the spin, the wait yields, then sleeps: a long wait must not hold a core that oversubscribed
// ranks need. When this machine runs more ranks than it has CPUs, the rank being waited for is
// likely descheduled, and a spin only delays it: such a waiter yields from the start (a barrier
// at 4 ranks on 2 CPUs: 130-290 us with the spin, 30-60 us without; at 2 ranks the spin still wins).
constexpr auto kSpinTime = std::chrono::microseconds(20);
constexpr int kPollEvery = 4;  // progress costs about as much as a few checks of the cell
// The first checks (about a microsecond) poll less often: over shared memory a signal lands without
// any progress call, and a poll in flight when it lands (an MPI_Iprobe: 130 ns) delays seeing it.
// The first check still polls at once, so a transfer the core started itself completes promptly.
constexpr int kQuietChecks = 64;
constexpr int kQuietPollEvery = 16;
constexpr int kYields = 64;
constexpr auto kMaxSleep = std::chrono::microseconds(200);

// More ranks on this machine (mpirun's OMPI_COMM_WORLD_LOCAL_SIZE) than online CPUs. Not the
// affinity mask: mpirun binds each of 2 ranks to one CPU of 2, which is no oversubscription.
bool oversubscribed() {
  static const bool value = [] {
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    long ranks = local ? std::atol(local) : 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 && ranks > cpus;
  }();
  return value;
}

}  // namespace

void World::poll_until(int rank, CoreState* core, const BlockInfo& info, const std::function<bool()>& ready) {
  if (ready()) return;
  if (core) {
    core->block = info;
    core->blocked.store(true, std::memory_order_release);
  }
  auto check_abort = [&] {
    if (!aborted()) return;
    if (core) core->blocked.store(false);
    throw RunAborted{};
  };
  bool done = false;
  // Spin. The clock is read from the 16th check on, not at once: it costs as much as completing a
  // small transfer.
  Clock::time_point spin_end{};
  for (int i = 0; !oversubscribed(); ++i) {
    check_abort();
    if (i % (i < kQuietChecks ? kQuietPollEvery : kPollEvery) == 0) transport_->poll();
    if ((done = ready())) break;
    if (i % 16 == 15) {
      Clock::time_point now = Clock::now();
      if (i == 15) spin_end = now + kSpinTime;
      if (now >= spin_end) break;
    }
    __builtin_ia32_pause();
  }
  for (int i = 0; !done; ++i) {
    check_abort();
    transport_->poll();
    if ((done = ready())) break;
    if (i < kYields) {
      sched_yield();
    } else {
      auto us = std::chrono::microseconds(2 * (i - kYields + 1));
      std::this_thread::sleep_for(std::min<std::chrono::microseconds>(us, kMaxSleep));
    }
  }
  if (core) {
    core->blocked.store(false, std::memory_order_release);
    core->progress.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace ptodist::runtime
