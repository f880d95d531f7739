// MPI transport benchmark, run as `mpirun -np 2 mpi_transport`: ptodist's put (synchronous),
// put_async (through the DMA engine) and notify -> wait latency, each against the raw MPI loop it
// stands for, in the same run and the same windows' kind (rank 0 -> rank 1; rank 1 only serves).
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/mpi.h"
#include "ptodist/runtime/world.h"

namespace {

using namespace ptodist::runtime;
using Clock = std::chrono::steady_clock;

constexpr int kTrials = 15;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Pair {
  double ours = 0, raw = 0;  // seconds per iteration, medians over the trials
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Times `ours` (on this thread, as a core would run it) and `raw` (on the communication thread, the
// one that may call MPI) in alternating trials, so load from other jobs hits both alike; medians.
Pair compare(MpiBackend& mpi, int iters, const std::function<void()>& ours,
             const std::function<void()>& raw) {
  std::vector<double> a, b;
  for (int k = 0; k < kTrials; ++k) {
    mpi.barrier();
    auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) ours();
    a.push_back(seconds_since(t0) / std::max(iters, 1));
    mpi.barrier();
    double s = 0;
    mpi.run([&] {
      auto t1 = Clock::now();
      for (int i = 0; i < iters; ++i) raw();
      s = seconds_since(t1) / std::max(iters, 1);
    });
    b.push_back(s);
  }
  return Pair{median(a), median(b)};
}

int iters_for(long long bytes) {
  return static_cast<int>(std::clamp<long long>((256LL << 20) / bytes, 8, 2000));
}

void report(const char* what, long long bytes, Pair p) {
  std::printf("%-10s %8lld KiB   ptodist %8.2f GB/s   raw MPI %8.2f GB/s   ratio %5.1f%%\n", what,
              bytes >> 10, bytes / p.ours / 1e9, bytes / p.raw / 1e9, 100 * p.raw / p.ours);
}

struct RawWindow {
  MPI_Win win = MPI_WIN_NULL;
  std::byte* base = nullptr;
};

RawWindow raw_window(MpiBackend& mpi, long long bytes) {
  RawWindow w;
  mpi.run([&] {
    MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w.base, &w.win);
    std::memset(w.base, 0, bytes);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w.win);
  });
  return w;
}

void bandwidth(MpiBackend& mpi, World& world, long long bytes) {
  int rank = mpi.rank();
  WindowBufferValue seg = world.alloc_window(bytes, "dst");
  RawWindow raw = raw_window(mpi, bytes);
  std::vector<std::byte> src(bytes, std::byte{1});
  int iters = rank == 0 ? iters_for(bytes) : 0;
  int n = static_cast<int>(bytes);
  Transport& tr = world.transport();
  // put: the synchronous put returns at local completion; the raw loop is MPI_Put + flush_local.
  Pair put = compare(
      mpi, iters,
      [&] {
        tr.put(1, {seg.segment, 0}, src.data(), bytes);
      },
      [&] {
        MPI_Put(src.data(), n, MPI_BYTE, 1, 0, n, MPI_BYTE, raw.win);
        MPI_Win_flush_local(1, raw.win);
      });
  if (rank == 0) report("put", bytes, put);
  // put_async: through the DMA engine (on MPI: MPI_Rput, completed by MPI_Wait + MPI_Win_flush), then
  // the completion word, polled as wait_async_event does (World::poll_until: spin, yield, sleep);
  // the raw loop is Rput + Wait + flush.
  auto session = std::make_shared<AsyncSessionState>();
  std::vector<uint32_t> scratch(64, 0);
  session->scratch.data = reinterpret_cast<std::byte*>(scratch.data());
  session->block_bytes = bytes;
  uint32_t seq = 0;
  const BlockInfo info{};
  Pair async = compare(
      mpi, iters,
      [&] {
        DmaTransfer t;
        t.peer = 1;
        t.remote = {seg.segment, 0};
        t.local = src.data();
        t.bytes = bytes;
        t.session = session;
        t.seq = ++seq;
        world.dma(0).submit(t);
        world.poll_until(0, nullptr, info, [&] {
          return std::atomic_ref<uint32_t>(*session->completion_word()).load(std::memory_order_acquire) >=
                 seq;
        });
      },
      [&] {
        MPI_Request req;
        MPI_Rput(src.data(), n, MPI_BYTE, 1, 0, n, MPI_BYTE, raw.win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_flush(1, raw.win);
      });
  if (rank == 0) report("put_async", bytes, async);
  mpi.run([&] {
    MPI_Win_unlock_all(raw.win);
    MPI_Win_free(&raw.win);
  });
}

// Ping-pong on one INT32 cell per rank; the figure is half a round trip.
void latency(MpiBackend& mpi, World& world) {
  int rank = mpi.rank(), peer = 1 - rank;
  constexpr int kIters = 2000;
  WindowBufferValue seg = world.alloc_window(64, "signal");
  auto* cell = reinterpret_cast<int32_t*>(world.transport().window_ptr(rank, {seg.segment, 0}));
  RawWindow raw = raw_window(mpi, 64);
  auto* raw_cell = reinterpret_cast<int32_t*>(raw.base);
  int32_t round = 0, raw_round = 0;
  // Waits as pld.system.wait does (World::poll_until: poll the cell, let MPI progress, back off).
  const BlockInfo info{};
  auto await = [&](int32_t v) {
    world.poll_until(0, nullptr, info,
                     [&] { return std::atomic_ref<int32_t>(*cell).load(std::memory_order_acquire) >= v; });
  };
  auto raw_await = [&](int32_t v) {
    while (std::atomic_ref<int32_t>(*raw_cell).load(std::memory_order_acquire) < v) MPI_Win_sync(raw.win);
  };
  Pair p = compare(
      mpi, 1,
      [&] {
        for (int i = 0; i < kIters; ++i) {
          ++round;
          if (rank == 1) await(round);
          world.transport().signal(peer, {seg.segment, 0}, 1, true);
          if (rank == 0) await(round);
        }
      },
      [&] {
        int32_t one = 1;
        for (int i = 0; i < kIters; ++i) {
          ++raw_round;
          if (rank == 1) raw_await(raw_round);
          MPI_Accumulate(&one, 1, MPI_INT32_T, peer, 0, 1, MPI_INT32_T, MPI_SUM, raw.win);
          MPI_Win_flush(peer, raw.win);
          if (rank == 0) raw_await(raw_round);
        }
      });
  if (rank == 0) {
    std::printf("%-10s %8s       ptodist %8.2f us     raw MPI %8.2f us     ratio %5.1f%%\n", "notify", "4 B",
                p.ours / kIters / 2 * 1e6, p.raw / kIters / 2 * 1e6, 100 * p.raw / p.ours);
  }
  mpi.run([&] {
    MPI_Win_unlock_all(raw.win);
    MPI_Win_free(&raw.win);
  });
}

}  // namespace

int main() {
  std::string error;
  MpiBackend* mpi = MpiBackend::start(&error);
  if (!mpi) {
    std::fprintf(stderr, "mpi_transport: %s\n", error.c_str());
    return 1;
  }
  if (mpi->size() != 2) {
    if (mpi->rank() == 0) std::fprintf(stderr, "mpi_transport: run it with mpirun -np 2\n");
    return 2;
  }
  {
    WorldOptions o;
    o.ranks = 2;
    o.make_transport = [mpi] { return mpi->make_transport(); };
    World world(o);
    if (mpi->rank() == 0)
      std::printf("MPI transport, rank 0 -> rank 1 (median of %d interleaved trials)\n", kTrials);
    for (long long bytes : {64LL << 10, 1LL << 20, 8LL << 20}) bandwidth(*mpi, world, bytes);
    latency(*mpi, world);
    mpi->barrier();
  }
  return 0;
}
