// Internal: the watchdog thread of one round (see watchdog.cpp).
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "ptodist/runtime/world.h"

namespace ptodist::runtime {

class Watchdog {
 public:
  // seconds <= 0 disables it.
  Watchdog(World& world, double seconds);
  ~Watchdog();

 private:
  void loop();
  World& world_;
  double seconds_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace ptodist::runtime
