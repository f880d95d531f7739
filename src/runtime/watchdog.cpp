// The watchdog: one thread per runtime that, while a round runs, samples the world's progress
// counters and, when nothing moved for the configured time, aborts the run with a report of every
// blocked core. It lives across rounds and is armed and disarmed without waking it: a round starts
// no thread and hands nothing to it, and between rounds it only ticks.
#include "watchdog.h"

namespace ptodist::runtime {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

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

void Watchdog::arm() {
  std::lock_guard<std::mutex> lock(mu_);
  armed_ = true;
  fresh_ = true;
}

// The check runs with mu_ held, so a disarm waits for a report in progress and none starts after it.
void Watchdog::disarm() {
  std::lock_guard<std::mutex> lock(mu_);
  armed_ = false;
}

void Watchdog::loop() {
  const auto tick = std::chrono::milliseconds(seconds_ < 1 ? 10 : 50);
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, tick, [&] { return stop_; });
    if (!stop_ && armed_) check_round();
  }
}

void Watchdog::check_round() {
  if (world_.aborted()) return;  // the round is ending already (an error or a report)
  const uint64_t now = world_.total_progress();
  if (fresh_ || now != last_progress_) {
    fresh_ = false;
    last_progress_ = now;
    last_change_ = Clock::now();
    return;
  }
  if (Clock::now() - last_change_ >= std::chrono::duration<double>(seconds_)) {
    world_.abort_for_hang(world_.blocked_report());
    armed_ = false;
  }
}

}  // namespace ptodist::runtime
