// Internal to the MPI backend: the DMA engine's put_async/get_async as MPI_Rput/MPI_Rget. In direct
// mode the issuing core starts a small transfer itself (no thread hand-off); a large one, or any in
// queue-only mode, is queued for the communication thread, so the copy overlaps the core's work.
// Whoever next holds MPI for progress (the idle communication thread, the core that waits on one,
// the end of the round) starts what is queued and completes every started transfer: MPI_Waitall,
// then one MPI_Win_flush per target (request completion is only local completion), then the
// completion words in issue order.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "comm_thread.h"
#include "ptodist/runtime/dma.h"
#include "window.h"

namespace ptodist::runtime {

class AsyncTransfers {
 public:
  // `local_writes` counts writes into this rank's windows that a notify must publish: a get landing
  // here adds one (MpiTransport::publish_local_stores).
  AsyncTransfers(CommThread& comm, std::vector<Window>& windows, std::atomic<uint64_t>& local_writes)
      : comm_(comm), windows_(windows), local_writes_(local_writes) {}

  // From any thread: starts `t` now or queues it for the communication thread.
  void submit(const DmaTransfer& t);
  // Something submitted is not complete yet (cheap, any thread).
  bool busy() const { return outstanding_.load(std::memory_order_acquire) > 0; }
  // With MPI held: starts the queued transfers, then completes every started one.
  void progress_locked();
  // Blocks until every submitted transfer is complete.
  void drain();
  void drop_queued();
  uint64_t completed() const { return completed_.load(std::memory_order_relaxed); }

 private:
  struct Started {
    std::shared_ptr<AsyncSessionState> session;
    uint32_t seq = 0;
  };
  void start_locked(const DmaTransfer& t);
  void complete_locked();

  CommThread& comm_;
  std::vector<Window>& windows_;
  std::atomic<uint64_t>& local_writes_;
  std::mutex queue_mu_;
  std::vector<DmaTransfer> queued_;         // not started yet, under queue_mu_
  std::atomic<long long> queued_count_{0};  // queued_.size(), readable without the lock
  std::vector<DmaTransfer> taking_;         // the batch being started (swapped with queued_: no allocation)
  // With MPI held. Cleared, not freed, after each completion: no allocation per transfer.
  std::vector<MPI_Request> requests_;
  std::vector<std::pair<int, int>> targets_;  // (segment, peer) of started puts, each once
  std::vector<Started> started_;              // in issue order
  std::atomic<long long> outstanding_{0};     // submitted, not completed
  bool gets_started_ = false;                 // with MPI held: a get among the started transfers
  std::atomic<uint64_t> completed_{0};
};

}  // namespace ptodist::runtime
