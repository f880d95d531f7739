// The MPI transport: each symmetric segment is one MPI window (MPI_Win_allocate, passive target,
// lock_all for its lifetime). When every rank runs on this machine the windows are shared memory
// (MPI_Win_allocate_shared): every rank's segment is mapped here, a put or get is a memcpy, an
// atomic add and a notify atomic operations on the peer's memory, and none of them enters MPI. Every MPI call
// runs with MPI held (CommThread::call): on the caller under the MPI lock in direct mode, else on the
// communication thread; under MPI_THREAD_MULTIPLE a notify with nothing to flush skips the lock
// (signal_unlocked). It also runs the DMA engine's transfers (DmaOffload, async_transfers.h).
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <string>
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
    case ir::DType::UINT16:
      return MPI_UINT16_T;
    case ir::DType::UINT32:
      return MPI_UINT32_T;
    case ir::DType::BOOL:
      return MPI_UINT8_T;
    case ir::DType::INT64:
    case ir::DType::INDEX:
      return MPI_INT64_T;
    default:
      return MPI_DATATYPE_NULL;
  }
}

// MPI counts are ints: larger transfers go in pieces of at most 1 GiB.
constexpr long long kMaxPiece = 1LL << 30;
constexpr unsigned kFullPollEvery = 8;
// Windows a notify may signal in without the MPI lock: their handles are kept in a fixed table, which
// never moves while a core reads it (windows_ may reallocate when the host allocates another).
constexpr int kUnlockedWindows = 64;

class MpiTransport final : public Transport, public DmaOffload {
 public:
  explicit MpiTransport(CommThread& comm) : comm_(comm), async_(comm, windows_, local_writes_) {
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
    if (shared_.load(std::memory_order_relaxed) && !async_.busy())
      return;                                  // a shared-memory signal lands without MPI
    if (!comm_.direct()) return comm_.poll();  // queue-only: keeps the communication thread polling
    // Only if MPI is free: whoever holds it (the communication thread running a large transfer) is
    // completing transfers already, and this core keeps checking its completion word meanwhile.
    if (async_.busy()) return (void)comm_.try_call([this] { async_.progress_locked(); });
    thread_local unsigned polls = 0;
    if (++polls % kFullPollEvery == 0) return comm_.poll();
    // Under the lock even with MPI_THREAD_MULTIPLE: several cores syncing at once contend inside
    // OpenMPI's progress engine, where a poll that finds MPI busy is simply skipped (docs/mpi.md).
    comm_.try_call([this] { sync_windows(); });
  }

  void submit_transfer(const DmaTransfer& t) override { async_.submit(t); }
  void drain_transfers() override { async_.drain(); }
  void drop_queued_transfers() override { async_.drop_queued(); }
  uint64_t transfers_completed() const override { return async_.completed(); }

  int alloc_segment(long long bytes) override {
    int index = 0;
    std::string failed;
    comm_.call([&] {
      if (windows_.empty()) {
        shared_.store(comm_.shared_windows().wanted && all_ranks_share_memory());
        comm_.set_progress_needed(!shared_.load());
      }
      Window w;
      w.bytes = bytes;
      if (!allocate_window(std::max<long long>(bytes, 8), w, &failed)) return;
      std::memset(w.base, 0, std::max<long long>(bytes, 8));
      MPI_Win_lock_all(MPI_MODE_NOCHECK, w.win);
      w.unified = is_unified(w.win);
      if (!w.unified) any_separate_.store(true);
      MPI_Win_sync(w.win);
      windows_.push_back(w);
      index = static_cast<int>(windows_.size()) - 1;
      if (index < kUnlockedWindows) {
        unlocked_wins_[index] = w.win;
        shared_peers_[index] = w.peers;
        unlocked_count_.store(index + 1, std::memory_order_release);
      }
    });
    if (!failed.empty()) throw RunError{SourceSpan{}, failed};
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
  // A request per piece rather than MPI_Win_flush_local: over shared memory (osc rdma, CMA) the copy
  // is done inside MPI_Rput and MPI_Test finds the request complete without entering the progress
  // engine, while a flush always runs at least one progress loop, which sched_yield()s when Open MPI
  // yields when idle (oversubscribed, or mpi_yield_when_idle=1): one yield per 64 KiB chunk made a
  // 16 MiB all_to_all_v at np 4 take seconds per call on a loaded machine. Only an incomplete request
  // (osc pt2pt) is waited for.
  void put(int peer, WindowAddr dst, const std::byte* src, long long bytes) override {
    if (std::byte* to = shared_ptr(peer, dst)) return (void)std::memcpy(to, src, bytes);
    comm_.call([&] {
      Window& w = windows_.at(dst.segment);
      for_pieces(bytes, [&](long long at, int n) {
        MPI_Request r;
        MPI_Rput(src + at, n, MPI_BYTE, peer, dst.offset + at, n, MPI_BYTE, w.win, &r);
        complete_locally(r);
      });
      mark_dirty(w);
    });
  }

  void get(int peer, WindowAddr src, std::byte* dst, long long bytes) override {
    if (const std::byte* from = shared_ptr(peer, src)) return (void)std::memcpy(dst, from, bytes);
    comm_.call([&] {
      Window& w = windows_.at(src.segment);
      flush_if_dirty(w);  // MPI orders a put before a later get only through a flush
      for_pieces(bytes, [&](long long at, int n) {
        MPI_Get(dst + at, n, MPI_BYTE, peer, src.offset + at, n, MPI_BYTE, w.win);
      });
      MPI_Win_flush(peer, w.win);
    });
    local_writes_.fetch_add(1);  // `dst` may be in our window
  }

  void accumulate(int peer, WindowAddr dst, const std::byte* src, long long count, ir::DType dtype) override {
    if (std::byte* to = shared_ptr(peer, dst)) return atomic_add_elements(to, src, count, dtype);
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
    local_writes_.fetch_add(1);
    stores_running_.fetch_sub(1);
  }

  // Publishes first: every earlier write of this rank (to any peer, in any window) is complete at its
  // target, and local stores into our own windows are synced, before the signal can be seen.
  // On shared memory a sequentially consistent atomic on the peer's cell does all of it: every
  // earlier write of this rank (a memcpy, a store through a pointer, a transfer whose completion this
  // thread has seen) happens-before it, and the waiter's acquire load sees them with the signal.
  void signal(int peer, WindowAddr cell, int32_t value, bool add) override {
    if (std::byte* at = shared_ptr(peer, cell)) {
      std::atomic_ref<int32_t> ref(*reinterpret_cast<int32_t*>(at));
      if (add)
        ref.fetch_add(value, std::memory_order_seq_cst);
      else
        ref.store(value, std::memory_order_seq_cst);
      return;
    }
    if (comm_.multiple() && signal_unlocked(peer, cell, value, add)) return;
    comm_.call([&] {
      flush_dirty_windows();
      publish_local_stores([this] { sync_windows(); });
      send_signal(windows_.at(cell.segment).win, peer, cell, value, add);
    });
  }

  void set_peer_timeout(double seconds) override { comm_.set_peer_timeout(seconds); }

  void begin_round() override {
    comm_.call([this] {
      for (Window& w : windows_) MPI_Win_sync(w.win);
      MPI_Request r;
      MPI_Ibarrier(MPI_COMM_WORLD, &r);
      comm_.wait_live(r);
    });
  }

  // Every rank flushes, then the reduction (which no rank leaves before all entered) also merges the
  // per-rank times: each process knows only its own.
  void end_round(std::vector<double>& rank_seconds) override {
    comm_.call([&] {
      flush_dirty_windows();
      MPI_Request r;
      MPI_Iallreduce(MPI_IN_PLACE, rank_seconds.data(), static_cast<int>(rank_seconds.size()), MPI_DOUBLE,
                     MPI_MAX, MPI_COMM_WORLD, &r);
      comm_.wait_live(r);
      for (Window& w : windows_) MPI_Win_sync(w.win);
    });
  }

 private:
  // MPI_Win_allocate with its error returned rather than fatal, so that a one-sided component that
  // refuses the thread level (osc pt2pt under MPI_THREAD_MULTIPLE) gets a message saying what to set.
  // Every process fails alike (the component is the same everywhere), so all of them report it.
  bool allocate_window(long long bytes, Window& w, std::string* failed) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = shared_.load() ? allocate_shared(bytes, w)
                            : MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w.base, &w.win);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (rc == MPI_SUCCESS) return true;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    *failed = std::string("pld.alloc_window_buffer: ") +
              (shared_.load() ? "MPI_Win_allocate_shared" : "MPI_Win_allocate") + " failed (" +
              std::string(text, len) + ")";
    if (shared_.load())
      *failed += ": set PTODIST_MPI_SHM=0 for windows reached through messages";
    else if (comm_.multiple())
      *failed += " under MPI_THREAD_MULTIPLE (" + comm_.mode_reason() +
                 "), which osc pt2pt refuses: set PTODIST_MPI_THREADS=serialized";
    return false;
  }

  // Every rank in one shared-memory domain (collective; once, at the first window).
  static bool all_ranks_share_memory() {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_size = 0, world = 0;
    MPI_Comm_size(node, &node_size);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_free(&node);
    return node_size == world;
  }

  // Each rank's segment on pages of its own (noncontiguous), every rank's base mapped here.
  int allocate_shared(long long bytes, Window& w) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    int rc = MPI_Win_allocate_shared(bytes, 1, info, MPI_COMM_WORLD, &w.base, &w.win);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) return rc;
    w.peers.resize(comm_.size());
    for (int r = 0; r < comm_.size(); ++r) {
      MPI_Aint size = 0;
      int unit = 0;
      MPI_Win_shared_query(w.win, r, &size, &unit, &w.peers[r]);
    }
    return MPI_SUCCESS;
  }

  // `addr` in `peer`'s segment when the window is shared memory, else null. Read without the MPI
  // lock: the fixed table is filled before unlocked_count_ publishes it and never changes; a
  // window beyond it takes the message path's code, whose MPI calls work on shared windows too.
  std::byte* shared_ptr(int peer, WindowAddr addr) const {
    if (addr.segment < 0 || addr.segment >= unlocked_count_.load(std::memory_order_acquire)) return nullptr;
    const std::vector<std::byte*>& peers = shared_peers_[addr.segment];
    return peers.empty() ? nullptr : peers[peer] + addr.offset;
  }

  // Local completion of one request: tested first (no progress call when already complete).
  static void complete_locally(MPI_Request& r) {
    int done = 0;
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (!done) MPI_Wait(&r, MPI_STATUS_IGNORE);
  }

  static void send_signal(MPI_Win win, int peer, WindowAddr cell, int32_t value, bool add) {
    MPI_Accumulate(&value, 1, MPI_INT32_T, peer, cell.offset, 1, MPI_INT32_T, add ? MPI_SUM : MPI_REPLACE,
                   win);
    MPI_Win_flush(peer, win);
  }

  // Under MPI_THREAD_MULTIPLE: the signal's MPI calls without the MPI lock, when they touch nothing
  // the lock protects. Puts not yet flushed (any_dirty_) need the walk over windows_, which is the
  // lock's, so they take the locked path (false: nothing done); so do a window beyond the fixed table
  // and separate-model windows (each needs its own sync). Skipping here is safe: a put that
  // happens-before this notify set any_dirty_ before it returned, and the only store that clears it
  // follows a flush of every window (release), so reading false means that flush is complete.
  // MPI_Win_flush and MPI_Win_sync act for the whole process, whichever thread calls them.
  bool signal_unlocked(int peer, WindowAddr cell, int32_t value, bool add) {
    if (any_dirty_.load(std::memory_order_acquire)) return false;
    int published = unlocked_count_.load(std::memory_order_acquire);
    if (cell.segment < 0 || cell.segment >= published || any_separate_.load()) return false;
    publish_local_stores([this] { MPI_Win_sync(unlocked_wins_[0]); });
    send_signal(unlocked_wins_[cell.segment], peer, cell, value, add);
    return true;
  }

  // Makes local stores into our windows visible before a signal (`sync`), unless none may have
  // happened since a sync that has completed: local_writes_ counts stores ops that ended and gets
  // that landed here, stores_synced_ the count a completed sync covers. An op running now (a
  // collective that stores, then signals, or a store on another core) always syncs. A store op that
  // happens-before this signal ended (incremented) before it, so it is counted in `ended`; a sync
  // that covered it finished before its thread advanced stores_synced_ (release), so a signal that
  // skips has seen that sync complete, even when it ran on another thread without the MPI lock.
  template <typename F>
  void publish_local_stores(F&& sync) {
    uint64_t ended = local_writes_.load();
    bool running = stores_running_.load() != 0;
    if (!running && ended <= stores_synced_.load(std::memory_order_acquire)) return;
    sync();
    uint64_t seen = stores_synced_.load(std::memory_order_relaxed);
    while (seen < ended && !stores_synced_.compare_exchange_weak(seen, ended, std::memory_order_release,
                                                                 std::memory_order_relaxed)) {
    }
  }

  void mark_dirty(Window& w) {
    w.dirty = true;
    any_dirty_.store(true, std::memory_order_release);
  }
  // A notify with nothing written since the last one (a ping-pong, a barrier made of signals) skips
  // the walk over every window. Puts by the DMA engine are flushed where they complete.
  void flush_dirty_windows() {
    if (!any_dirty_.load(std::memory_order_acquire)) return;
    for (Window& w : windows_) flush_if_dirty(w);
    any_dirty_.store(false, std::memory_order_release);
  }

  // Every window here normally has the unified memory model (checked at allocation), where
  // MPI_Win_sync is a memory barrier, so one call orders them all; a separate-model window is
  // synced itself.
  void sync_windows() {
    if (windows_.empty()) return;
    if (!any_separate_.load()) return (void)MPI_Win_sync(windows_.front().win);
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
  std::vector<Window> windows_;  // changed only with MPI held (and read by window_ptr)
  // The first kUnlockedWindows handles, for signal_unlocked: written with MPI held, then published by
  // unlocked_count_ (release); never changed after.
  MPI_Win unlocked_wins_[kUnlockedWindows] = {};
  std::vector<std::byte*> shared_peers_[kUnlockedWindows];  // Window::peers of the same windows
  std::atomic<bool> shared_{false};                         // decided at the first window, with MPI held
  std::atomic<int> unlocked_count_{0};
  std::atomic<bool> any_separate_{false};  // a separate-model window needs its own MPI_Win_sync
  // Some Window::dirty may be set (flush_if_dirty elsewhere may clear it). Set and cleared with MPI
  // held; read without it by signal_unlocked.
  std::atomic<bool> any_dirty_{false};
  // See publish_local_stores. Starts one ahead, so the first notify syncs.
  std::atomic<uint64_t> local_writes_{1};
  std::atomic<uint64_t> stores_synced_{0};
  std::atomic<int> stores_running_{0};
  AsyncTransfers async_;
};

}  // namespace

std::unique_ptr<Transport> make_mpi_transport(CommThread& comm) {
  return std::make_unique<MpiTransport>(comm);
}

}  // namespace ptodist::runtime
