// Internal: the runtime's watchdog thread, armed for each round (see watchdog.cpp).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "ptodist/runtime/world.h"

namespace ptodist::runtime {

class Watchdog {
 public:
  // seconds <= 0 disables it (no thread).
  Watchdog(World& world, double seconds);
  ~Watchdog();
  // A round's orchestration starts: from the next tick on, no progress for `seconds` ends the round.
  void arm();
  // The round ended: once this returns no report is made for it.
  void disarm();

 private:
  void loop();
  void check_round();  // with mu_ held
  World& world_;
  double seconds_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool armed_ = false;
  bool fresh_ = false;  // armed since the last tick: the progress count restarts
  uint64_t last_progress_ = 0;
  std::chrono::steady_clock::time_point last_change_;
  std::thread thread_;
};

}  // namespace ptodist::runtime
