// The DMA engine of one rank: a thread that executes put_async/get_async transfers in issue order,
// concurrently with the cores, and completes each by writing its sequence number into the
// completion word of the issuing session's scratch (which wait_async_event reads). A core that waits
// for a transfer the thread has not started runs it itself (help). When the rank threads fill the
// CPUs, the engine defers: it starts nothing until a core of its rank blocks or polls (dma_engine.cpp).
// A transport with its own asynchronous transfers (MPI_Rput) takes them over instead (DmaOffload): no
// engine thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
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
  WindowAddr local_window{};  // where `local` is window memory of the issuing rank; segment -1 otherwise
  int check_id = -1;          // check mode: the transfer's check::TransferId
};

// Implemented by a transport that runs the engine's transfers itself, in issue order, and writes the
// completion words (the MPI transport: MPI_Rput/MPI_Rget, completed by MPI_Wait + MPI_Win_flush).
// The engine then keeps no thread: a hand-off to one costs more than a small transfer.
class DmaOffload {
 public:
  virtual ~DmaOffload() = default;
  // Starts `t` (in pieces of its session's block_bytes) without waiting for it to complete.
  virtual void submit_transfer(const DmaTransfer& t) = 0;
  // Blocks until every submitted transfer is complete and its completion word written.
  virtual void drain_transfers() = 0;
  // Forgets submitted transfers that have not started (after an abort).
  virtual void drop_queued_transfers() = 0;
  // Transfers completed so far (watchdog progress).
  virtual uint64_t transfers_completed() const = 0;
};

class DmaEngine {
 public:
  // `defer`: leave submitted transfers queued for the rank's cores to run when they block or poll
  // (and the engine thread at the end of the round), instead of waking the engine thread at once.
  DmaEngine(World& world, int rank, bool defer);
  ~DmaEngine();
  void submit(DmaTransfer t);
  // Called by a core about to block until `done()`: runs queued transfers on the calling thread, in
  // issue order, while the engine thread is not running one and `done()` is false. Returns when
  // `done()` holds or the next transfer is not the caller's to take (the engine runs one, or none is
  // queued); the caller then blocks as usual.
  void help(const std::function<bool()>& done);
  // Whether submitted transfers wait for a core (see the constructor).
  bool deferred() const { return defer_; }
  // Drops queued transfers (after an abort) so a new round starts clean.
  void clear();
  // Returns once every submitted transfer has finished (a round never ends with the engine still
  // reading host tensors that the caller may free).
  void wait_idle();
  uint64_t completed() const;

 private:
  void loop();
  void execute(const DmaTransfer& t);
  // With `lock` (on mu_) held, no transfer running and one queued: runs the front one with the lock
  // released; wakes wait_idle() when none is left.
  void run_front(std::unique_lock<std::mutex>& lock);

  World& world_;
  int rank_;
  DmaOffload* offload_ = nullptr;  // the transport, when it runs transfers itself
  bool defer_ = false;
  bool draining_ = false;  // under mu_: wait_idle() runs, the thread may take deferred transfers
  std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<DmaTransfer> queue_;
  bool busy_ = false;  // a transfer runs (on the engine thread or a helping core): one at a time, in order
  bool stop_ = false;
  std::atomic<uint64_t> completed_{0};
  std::thread thread_;
};

}  // namespace ptodist::runtime
