// The watchdog: a thread that samples the world's progress counters and, when nothing moved for the
// configured time, aborts the run with a report of every blocked core.
#include "watchdog.h"

#include <chrono>

namespace ptodist::runtime {

Watchdog::Watchdog(World& world, double seconds) : world_(world), seconds_(seconds) {
  if (seconds_ > 0) thread_ = std::thread([this] { loop(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::loop() {
  using clock = std::chrono::steady_clock;
  const auto limit = std::chrono::duration<double>(seconds_);
  const auto tick = std::chrono::milliseconds(seconds_ < 1 ? 10 : 50);
  uint64_t last = world_.total_progress();
  auto last_change = clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, tick, [&] { return stop_; });
    if (stop_ || world_.aborted()) return;
    uint64_t now = world_.total_progress();
    if (now != last) {
      last = now;
      last_change = clock::now();
      continue;
    }
    if (clock::now() - last_change >= limit) {
      world_.abort_for_hang(world_.blocked_report());
      return;
    }
  }
}

}  // namespace ptodist::runtime
