// Blocking waits for transports whose remote writes arrive without a wake() (MPI): the core polls its
// own cell, spinning briefly, then yielding, then sleeping with a growing, capped backoff, so a long
// wait costs little CPU and the watchdog still sees it blocked.
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "ptodist/runtime/world.h"

namespace ptodist::runtime {
namespace {

constexpr int kSpins = 64;
constexpr int kYields = 64;
constexpr auto kMaxSleep = std::chrono::microseconds(200);

void back_off(int i) {
  if (i < kSpins) {
    __builtin_ia32_pause();
  } else if (i < kSpins + kYields) {
    sched_yield();
  } else {
    auto us = std::chrono::microseconds(2 * (i - kSpins - kYields + 1));
    std::this_thread::sleep_for(std::min<std::chrono::microseconds>(us, kMaxSleep));
  }
}

}  // namespace

void World::poll_until(int rank, CoreState* core, const BlockInfo& info, const std::function<bool()>& ready) {
  if (ready()) return;
  if (core) {
    core->block = info;
    core->blocked.store(true, std::memory_order_release);
  }
  for (int i = 0;; ++i) {
    if (aborted()) {
      if (core) core->blocked.store(false);
      throw RunAborted{};
    }
    // Progress costs about as much as a few checks of the cell: while spinning, one in four.
    if (i >= kSpins || i % 4 == 0) transport_->poll();
    if (ready()) break;
    back_off(i);
  }
  if (core) {
    core->blocked.store(false, std::memory_order_release);
    core->progress.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace ptodist::runtime
