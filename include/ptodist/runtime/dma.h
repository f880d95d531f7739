// The DMA engine of one rank: a thread that executes put_async/get_async transfers in issue order,
// concurrently with the cores, and completes each by writing its sequence number into the
// completion word of the issuing session's scratch (which wait_async_event reads).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "ptodist/runtime/value.h"

namespace ptodist::runtime {

class World;

struct DmaTransfer {
  bool is_put = true;  // put: local -> peer window; get: peer window -> local
  int peer = 0;
  WindowAddr remote;
  std::byte* local = nullptr;
  long long bytes = 0;
  std::shared_ptr<AsyncSessionState> session;
  uint32_t seq = 0;
  WindowAddr local_window;  // where `local` is window memory of the issuing rank; segment -1 otherwise
  int check_id = -1;  // check mode: the transfer's check::TransferId
};

class DmaEngine {
 public:
  DmaEngine(World& world, int rank);
  ~DmaEngine();
  void submit(DmaTransfer t);
  // Drops queued transfers (after an abort) so a new round starts clean.
  void clear();
  // Returns once every submitted transfer has finished (a round never ends with the engine still
  // reading host tensors that the caller may free).
  void wait_idle();
  uint64_t completed() const { return completed_.load(std::memory_order_relaxed); }

 private:
  void loop();
  void execute(const DmaTransfer& t);

  World& world_;
  int rank_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<DmaTransfer> queue_;
  bool busy_ = false;
  bool stop_ = false;
  std::atomic<uint64_t> completed_{0};
  std::thread thread_;
};

}  // namespace ptodist::runtime
