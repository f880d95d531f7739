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

constexpr int kTrials = 7;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Median over trials of the time per iteration of `body` (run `iters` times per trial).
double per_iter(MpiBackend& mpi, int iters, const std::function<void()>& body) {
  std::vector<double> t;
  for (int k = 0; k < kTrials; ++k) {
    mpi.barrier();
    auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) body();
    t.push_back(seconds_since(t0) / iters);
  }
  std::sort(t.begin(), t.end());
  return t[kTrials / 2];
}

// The same, for a loop that must run on the communication thread (raw MPI).
double per_iter_raw(MpiBackend& mpi, int iters, const std::function<void()>& body) {
  std::vector<double> t;
  for (int k = 0; k < kTrials; ++k) {
    mpi.barrier();
    double s = 0;
    mpi.run([&] {
      auto t0 = Clock::now();
      for (int i = 0; i < iters; ++i) body();
      s = seconds_since(t0) / iters;
    });
    t.push_back(s);
  }
  std::sort(t.begin(), t.end());
  return t[kTrials / 2];
}

int iters_for(long long bytes) {
  return static_cast<int>(std::clamp<long long>((256LL << 20) / bytes, 8, 2000));
}

void report(const char* what, long long bytes, double ours, double raw) {
  std::printf("%-10s %8lld KiB   ptodist %8.2f GB/s   raw MPI %8.2f GB/s   ratio %5.1f%%\n", what,
              bytes >> 10, bytes / ours / 1e9, bytes / raw / 1e9, 100 * raw / ours);
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
  int iters = iters_for(bytes);
  Transport& tr = world.transport();
  // put: the synchronous put returns at local completion; the raw loop is MPI_Put + flush_local.
  double ours = per_iter(mpi, rank == 0 ? iters : 0, [&] { tr.put(1, {seg.segment, 0}, src.data(), bytes); });
  double base = per_iter_raw(mpi, rank == 0 ? iters : 0, [&] {
    MPI_Put(src.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes), MPI_BYTE, raw.win);
    MPI_Win_flush_local(1, raw.win);
  });
  if (rank == 0) report("put", bytes, ours, base);
  // put_async: DMA engine -> communication thread (MPI_Rput, MPI_Wait, MPI_Win_flush) -> completion
  // word, which this thread polls as wait_async_event does (World::poll_until: spin, yield, sleep);
  // the raw loop is Rput + Wait + flush.
  auto session = std::make_shared<AsyncSessionState>();
  std::vector<uint32_t> scratch(64, 0);
  session->scratch.data = reinterpret_cast<std::byte*>(scratch.data());
  session->block_bytes = bytes;
  uint32_t seq = 0;
  ours = per_iter(mpi, rank == 0 ? iters : 0, [&] {
    DmaTransfer t{true, 1, {seg.segment, 0}, src.data(), bytes, session, ++seq};
    world.dma(0).submit(t);
    world.poll_until(0, nullptr, BlockInfo{}, [&] {
      return std::atomic_ref<uint32_t>(*session->completion_word()).load(std::memory_order_acquire) >= seq;
    });
  });
  base = per_iter_raw(mpi, rank == 0 ? iters : 0, [&] {
    MPI_Request req;
    MPI_Rput(src.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes), MPI_BYTE, raw.win,
             &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_flush(1, raw.win);
  });
  if (rank == 0) report("put_async", bytes, ours, base);
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
  int32_t round = 0;
  // Waits as pld.system.wait does (World::poll_until: poll the cell, let MPI progress, back off).
  auto await = [&world](int32_t* c, int32_t v) {
    world.poll_until(0, nullptr, BlockInfo{},
                     [&] { return std::atomic_ref<int32_t>(*c).load(std::memory_order_acquire) >= v; });
  };
  double ours = per_iter(mpi, 1, [&] {
    for (int i = 0; i < kIters; ++i) {
      ++round;
      if (rank == 0) {
        world.transport().signal(peer, {seg.segment, 0}, 1, true);
        await(cell, round);
      } else {
        await(cell, round);
        world.transport().signal(peer, {seg.segment, 0}, 1, true);
      }
    }
  });
  RawWindow raw = raw_window(mpi, 64);
  auto* raw_cell = reinterpret_cast<int32_t*>(raw.base);
  int32_t raw_round = 0;
  double base = per_iter_raw(mpi, 1, [&] {
    int32_t one = 1;
    auto raw_await = [&](int32_t v) {
      while (std::atomic_ref<int32_t>(*raw_cell).load(std::memory_order_acquire) < v) MPI_Win_sync(raw.win);
    };
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
                ours / kIters / 2 * 1e6, base / kIters / 2 * 1e6, 100 * base / ours);
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
    if (mpi->rank() == 0) std::printf("MPI transport, rank 0 -> rank 1 (median of %d trials)\n", kTrials);
    for (long long bytes : {64LL << 10, 1LL << 20, 8LL << 20}) bandwidth(*mpi, world, bytes);
    latency(*mpi, world);
    mpi->barrier();
  }
  return 0;
}
