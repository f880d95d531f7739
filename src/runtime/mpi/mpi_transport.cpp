// The MPI transport: each symmetric segment is one MPI window (MPI_Win_allocate, passive target,
// lock_all for its lifetime). Every MPI call runs with MPI held (CommThread::call): on the caller
// under the MPI lock in direct mode, else on the communication thread. It also runs the DMA engine's
// transfers (DmaOffload, async_transfers.h).
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <utility>
#include <vector>

#include "../tile_math.h"
#include "async_transfers.h"
#include "comm_thread.h"
#include "ptodist/runtime/mpi.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {
namespace {

bool is_unified(MPI_Win win) {
  int* model = nullptr;
  int found = 0;
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &found);
  return !found || *model == MPI_WIN_UNIFIED;
}

// MPI's element type for an atomic add, or MPI_DATATYPE_NULL for fp16/bf16 (MPI has none).
MPI_Datatype mpi_type(ir::DType t) {
  switch (t) {
    case ir::DType::FP32:
      return MPI_FLOAT;
    case ir::DType::INT32:
      return MPI_INT32_T;
    case ir::DType::INT16:
      return MPI_INT16_T;
    case ir::DType::INT8:
      return MPI_INT8_T;
    case ir::DType::UINT8:
      return MPI_UINT8_T;
    case ir::DType::BOOL:
      return MPI_UINT8_T;
    case ir::DType::INT64:
      return MPI_INT64_T;
    default:
      return MPI_DATATYPE_NULL;
  }
}

// MPI counts are ints: larger transfers go in pieces of at most 1 GiB.
constexpr long long kMaxPiece = 1LL << 30;
constexpr unsigned kFullPollEvery = 8;

class MpiTransport final : public Transport, public DmaOffload {
 public:
  explicit MpiTransport(CommThread& comm) : comm_(comm), async_(comm, windows_) {
    comm_.set_idle_hook([this] {
      async_.progress_locked();
      sync_windows();
    });
  }

  ~MpiTransport() override {
    comm_.set_idle_hook(nullptr);
    // Collective: every process destroys its runtime at the same point of the command.
    comm_.call([this] {
      async_.progress_locked();
      for (Window& w : windows_) {
        MPI_Win_unlock_all(w.win);
        MPI_Win_free(&w.win);
      }
    });
  }

  int world_size() const override { return comm_.size(); }
  int local_rank() const override { return comm_.rank(); }
  bool needs_polling() const override { return true; }
  // From a polling wait. A waiting core completes started transfers itself (direct mode: no
  // hand-off). Otherwise most polls only sync the windows (a memory barrier when they are unified:
  // tens of nanoseconds), and one in kFullPollEvery also enters the progress engine (MPI_Iprobe,
  // which osc pt2pt needs and which costs several syncs): a signal that lands meanwhile is seen late.
  void poll() override {
    if (!comm_.direct()) return comm_.poll();  // queue-only: keeps the communication thread polling
    // Only if MPI is free: whoever holds it (the communication thread running a large transfer) is
    // completing transfers already, and this core keeps checking its completion word meanwhile.
    if (async_.busy()) return (void)comm_.try_call([this] { async_.progress_locked(); });
    thread_local unsigned polls = 0;
    if (++polls % kFullPollEvery == 0) return comm_.poll();
    comm_.try_call([this] { sync_windows(); });
  }

  void submit_transfer(const DmaTransfer& t) override { async_.submit(t); }
  void drain_transfers() override { async_.drain(); }
  void drop_queued_transfers() override { async_.drop_queued(); }
  uint64_t transfers_completed() const override { return async_.completed(); }

  int alloc_segment(long long bytes) override {
    int index = 0;
    comm_.call([&] {
      Window w;
      w.bytes = bytes;
      MPI_Win_allocate(std::max<long long>(bytes, 8), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w.base, &w.win);
      std::memset(w.base, 0, std::max<long long>(bytes, 8));
      MPI_Win_lock_all(MPI_MODE_NOCHECK, w.win);
      w.unified = is_unified(w.win);
      any_separate_ = any_separate_ || !w.unified;
      MPI_Win_sync(w.win);
      windows_.push_back(w);
      index = static_cast<int>(windows_.size()) - 1;
    });
    return index;
  }

  void zero_segments() override {
    comm_.call([this] {
      for (Window& w : windows_) {
        std::memset(w.base, 0, w.bytes);
        MPI_Win_sync(w.win);
      }
    });
  }

  std::byte* window_ptr(int rank, WindowAddr addr) override {
    if (rank != comm_.rank()) return nullptr;  // a peer's memory is in another process
    return windows_.at(addr.segment).base + addr.offset;
  }

  // Synchronous: returns once the source may be reused (local completion); notify flushes remotely.
  void put(int peer, WindowAddr dst, const std::byte* src, long long bytes) override {
    comm_.call([&] {
      Window& w = windows_.at(dst.segment);
      for_pieces(bytes, [&](long long at, int n) {
        MPI_Put(src + at, n, MPI_BYTE, peer, dst.offset + at, n, MPI_BYTE, w.win);
      });
      MPI_Win_flush_local(peer, w.win);
      mark_dirty(w);
    });
  }

  void get(int peer, WindowAddr src, std::byte* dst, long long bytes) override {
    comm_.call([&] {
      Window& w = windows_.at(src.segment);
      flush_if_dirty(w);  // MPI orders a put before a later get only through a flush
      for_pieces(bytes, [&](long long at, int n) {
        MPI_Get(dst + at, n, MPI_BYTE, peer, src.offset + at, n, MPI_BYTE, w.win);
      });
      MPI_Win_flush(peer, w.win);
    });
    local_stores_.store(true);  // `dst` may be in our window
  }

  void accumulate(int peer, WindowAddr dst, const std::byte* src, long long count, ir::DType dtype) override {
    comm_.call([&] {
      Window& w = windows_.at(dst.segment);
      MPI_Datatype t = mpi_type(dtype);
      if (t == MPI_DATATYPE_NULL) {
        add_by_cas(w, peer, dst.offset, src, count, dtype);
      } else {
        int eb = ir::dtype_bytes(dtype);
        long long per = kMaxPiece / eb;
        for (long long i = 0; i < count; i += per) {
          int n = static_cast<int>(std::min(per, count - i));
          MPI_Accumulate(src + i * eb, n, t, peer, dst.offset + i * eb, n, t, MPI_SUM, w.win);
        }
        MPI_Win_flush_local(peer, w.win);
      }
      mark_dirty(w);
    });
  }

  void begin_local_stores() override { stores_running_.fetch_add(1); }
  void end_local_stores() override {
    local_stores_.store(true);
    stores_running_.fetch_sub(1);
  }

  // Publishes first: every earlier write of this rank (to any peer, in any window) is complete at its
  // target, and local stores into our own windows are synced, before the signal can be seen.
  void signal(int peer, WindowAddr cell, int32_t value, bool add) override {
    comm_.call([&] {
      flush_dirty_windows();
      if (local_stores_to_publish()) sync_windows();  // our local stores are visible before the signal
      Window& w = windows_.at(cell.segment);
      MPI_Accumulate(&value, 1, MPI_INT32_T, peer, cell.offset, 1, MPI_INT32_T, add ? MPI_SUM : MPI_REPLACE,
                     w.win);
      MPI_Win_flush(peer, w.win);
    });
  }

  void begin_round() override {
    comm_.call([this] {
      for (Window& w : windows_) MPI_Win_sync(w.win);
      MPI_Barrier(MPI_COMM_WORLD);
    });
  }

  // Every rank flushes, then the reduction (which no rank leaves before all entered) also merges the
  // per-rank times: each process knows only its own.
  void end_round(std::vector<double>& rank_seconds) override {
    comm_.call([&] {
      flush_dirty_windows();
      MPI_Allreduce(MPI_IN_PLACE, rank_seconds.data(), static_cast<int>(rank_seconds.size()), MPI_DOUBLE,
                    MPI_MAX, MPI_COMM_WORLD);
      for (Window& w : windows_) MPI_Win_sync(w.win);
    });
  }

 private:
  // Whether a store into our windows may have happened since the last signal that synced: an op that
  // stores finished since then (it sets local_stores_ after its stores), one is running now (a
  // collective that stores, then signals, or a store on another core), or a get landed. The flag is
  // taken before the count is read, so a store that happens-before this signal is always seen (the
  // seq_cst pair: a store op ends with flag then count, this reads flag then count). The flag is
  // only exchanged when set: a read-modify-write is a tenth of a signal's extra cost.
  bool local_stores_to_publish() {
    bool stored = local_stores_.load() && local_stores_.exchange(false);
    bool running = stores_running_.load() != 0;
    bool landed = async_.take_local_landings();
    return stored || running || landed;
  }

  void mark_dirty(Window& w) {
    w.dirty = true;
    any_dirty_ = true;
  }
  // A notify with nothing written since the last one (a ping-pong, a barrier made of signals) skips
  // the walk over every window. Puts by the DMA engine are flushed where they complete.
  void flush_dirty_windows() {
    if (!any_dirty_) return;
    for (Window& w : windows_) flush_if_dirty(w);
    any_dirty_ = false;
  }

  // Every window here normally has the unified memory model (checked at allocation), where
  // MPI_Win_sync is a memory barrier, so one call orders them all; a separate-model window is
  // synced itself.
  void sync_windows() {
    if (windows_.empty()) return;
    if (!any_separate_) return (void)MPI_Win_sync(windows_.front().win);
    for (Window& w : windows_) MPI_Win_sync(w.win);
  }

  template <typename F>
  static void for_pieces(long long bytes, F&& f) {
    for (long long at = 0; at < bytes; at += kMaxPiece)
      f(at, static_cast<int>(std::min(kMaxPiece, bytes - at)));
  }

  // fp16/bf16 atomic add: a compare-and-swap loop per 16-bit element (MPI has no half-precision sum).
  static void add_by_cas(Window& w, int peer, long long offset, const std::byte* src, long long count,
                         ir::DType dtype) {
    for (long long i = 0; i < count; ++i) {
      MPI_Aint at = offset + 2 * i;
      int16_t seen = 0, dummy = 0;
      MPI_Fetch_and_op(&dummy, &seen, MPI_INT16_T, peer, at, MPI_NO_OP, w.win);
      MPI_Win_flush(peer, w.win);
      while (true) {
        double sum =
            load_element(reinterpret_cast<const std::byte*>(&seen), dtype) + load_element(src + 2 * i, dtype);
        int16_t next = 0, old = 0;
        store_element(reinterpret_cast<std::byte*>(&next), dtype, sum);
        MPI_Compare_and_swap(&next, &seen, &old, MPI_INT16_T, peer, at, w.win);
        MPI_Win_flush(peer, w.win);
        if (old == seen) break;
        seen = old;
      }
    }
  }

  CommThread& comm_;
  std::vector<Window> windows_;
  // Touched only with MPI held (and window_ptr reads).
  bool any_separate_ = false;  // a window with the separate memory model needs its own MPI_Win_sync
  bool any_dirty_ = false;     // some Window::dirty may be set (flush_if_dirty elsewhere may clear it)
  std::atomic<bool> local_stores_{true};  // see local_stores_to_publish
  std::atomic<int> stores_running_{0};
  AsyncTransfers async_;
};

}  // namespace

std::unique_ptr<Transport> make_mpi_transport(CommThread& comm) {
  return std::make_unique<MpiTransport>(comm);
}

}  // namespace ptodist::runtime
