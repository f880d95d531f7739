// MPI transport benchmark, run as `mpirun -np 2 mpi_transport`: ptodist's put (synchronous),
// put_async (through the DMA engine) and notify -> wait latency, each against the raw MPI loop it
// stands for, in the same run (rank 0 -> rank 1; rank 1 only serves). The raw loops use
// MPI_Win_allocate windows; ptodist's side uses whatever windows its transport picks, so run it with
// PTODIST_MPI_SHM=0 to compare like with like (bench/mpi_bench.sh runs both).
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../src/runtime/mpi/comm_thread.h"
#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/mpi.h"
#include "ptodist/runtime/world.h"

namespace {

using namespace ptodist::runtime;
using Clock = std::chrono::steady_clock;

// Options (mpi_transport [--trials N] [--ping-pongs N] [--only bandwidth|notify]).
struct Options {
  int trials = 21;     // alternating trials per figure (ours, raw, ours, raw, ...)
  int ping_pongs = 0;  // round trips per notify trial; 0: as many as take about 10 ms (see latency)
  bool bandwidth = true, notify = true;
};
Options opts;

bool parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--trials" && v) {
      opts.trials = std::max(1, std::atoi(v));
    } else if (a == "--ping-pongs" && v) {
      opts.ping_pongs = std::max(0, std::atoi(v));
    } else if (a == "--only" && v && (std::string(v) == "bandwidth" || std::string(v) == "notify")) {
      opts.bandwidth = std::string(v) == "bandwidth";
      opts.notify = !opts.bandwidth;
    } else {
      return false;
    }
    ++i;
  }
  return true;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Pair {
  double ours = 0, raw = 0;           // seconds per iteration, medians over the trials
  double ratio = 0;                   // median over the trials of raw / ours (each trial pairs neighbours)
  double ratio_lo = 0, ratio_hi = 0;  // its quartiles
};

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * (v.size() - 1) + 0.5)];
}
double median(const std::vector<double>& v) {
  return quantile(v, 0.5);
}

// Times `ours` (on this thread, as a core would run it) and `raw` (on the communication thread, the
// one that may call MPI) in alternating trials, so load from other jobs hits both alike; medians.
Pair compare(MpiBackend& mpi, int iters, const std::function<void()>& ours,
             const std::function<void()>& raw) {
  std::vector<double> a, b, r;
  for (int k = 0; k < opts.trials; ++k) {
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
    r.push_back(b.back() / a.back());
  }
  return Pair{median(a), median(b), median(r), quantile(r, 0.25), quantile(r, 0.75)};
}

int iters_for(long long bytes) {
  return static_cast<int>(std::clamp<long long>((256LL << 20) / bytes, 8, 2000));
}

void report(const char* what, long long bytes, Pair p) {
  std::printf("%-10s %8lld KiB   ptodist %8.2f GB/s   raw MPI %8.2f GB/s   ratio %5.1f%%  [%3.0f-%3.0f%%]\n",
              what, bytes >> 10, bytes / p.ours / 1e9, bytes / p.raw / 1e9, 100 * p.raw / p.ours,
              100 * p.ratio_lo, 100 * p.ratio_hi);
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
  int n = opts.ping_pongs;
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
  // A trial of about 10 ms (several scheduler ticks, so one preemption does not decide it): 10000
  // round trips over shared memory, a few hundred over TCP. Rank 0 times 200 raw ones and tells rank 1.
  if (n == 0) {
    mpi.run([&] {
      MPI_Barrier(MPI_COMM_WORLD);
      auto t0 = Clock::now();
      for (int i = 0; i < 200; ++i) {
        int32_t one = 1;
        ++raw_round;
        if (rank == 1) raw_await(raw_round);
        MPI_Accumulate(&one, 1, MPI_INT32_T, peer, 0, 1, MPI_INT32_T, MPI_SUM, raw.win);
        MPI_Win_flush(peer, raw.win);
        if (rank == 0) raw_await(raw_round);
      }
      n = static_cast<int>(std::clamp(10e-3 / (seconds_since(t0) / 200), 200.0, 10000.0));
      MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    });
  }
  auto ping_pongs = [&] {
    for (int i = 0; i < n; ++i) {
      ++round;
      if (rank == 1) await(round);
      world.transport().signal(peer, {seg.segment, 0}, 1, true);
      if (rank == 0) await(round);
    }
  };
  // The raw signal: MPI_Accumulate + MPI_Win_flush; `publish` adds the MPI_Win_sync that ptodist's
  // notify makes first (it publishes the rank's local stores into its windows, which the plain raw
  // loop does not promise).
  auto raw_ping_pongs = [&](bool publish) {
    int32_t one = 1;
    for (int i = 0; i < n; ++i) {
      ++raw_round;
      if (rank == 1) raw_await(raw_round);
      if (publish) MPI_Win_sync(raw.win);
      MPI_Accumulate(&one, 1, MPI_INT32_T, peer, 0, 1, MPI_INT32_T, MPI_SUM, raw.win);
      MPI_Win_flush(peer, raw.win);
      if (rank == 0) raw_await(raw_round);
    }
  };
  Pair p = compare(mpi, 1, ping_pongs, [&] { raw_ping_pongs(false); });
  Pair ps = compare(mpi, 1, ping_pongs, [&] { raw_ping_pongs(true); });
  if (rank == 0) {
    for (auto [what, q] : {std::pair{"notify", p}, std::pair{"notify/s", ps}})
      std::printf(
          "%-10s %8s       ptodist %8.3f us     raw MPI %8.3f us     ratio %5.1f%%  [%3.0f-%3.0f%%]\n", what,
          "4 B", q.ours / n / 2 * 1e6, q.raw / n / 2 * 1e6, 100 * q.raw / q.ours, 100 * q.ratio_lo,
          100 * q.ratio_hi);
    std::printf(
        "(%d round trips per trial; notify/s: the raw loop also calls MPI_Win_sync before each "
        "MPI_Accumulate, as ptodist does)\n",
        n);
  }
  mpi.run([&] {
    MPI_Win_unlock_all(raw.win);
    MPI_Win_free(&raw.win);
  });
}

// What one notify costs on its own, piece by piece (rank 0 signals itself; no peer involved): the
// MPI-lock hand-off of an empty call, one MPI_Win_sync, a whole Transport::signal, and the raw
// MPI_Accumulate + MPI_Win_flush pair it adds those to. Nanoseconds per call, medians of the trials.
void pieces(MpiBackend& mpi, World& world) {
  constexpr int kCalls = 20000;
  WindowBufferValue seg = world.alloc_window(64, "self");
  RawWindow raw = raw_window(mpi, 64);
  int rank = mpi.rank();
  auto per_call = [&](const std::function<void()>& body) {
    std::vector<double> t;
    for (int k = 0; k < opts.trials; ++k) {
      auto t0 = Clock::now();
      body();
      t.push_back(seconds_since(t0) / kCalls * 1e9);
    }
    return median(t);
  };
  double lock = per_call([&] {
    for (int i = 0; i < kCalls; ++i) mpi.run([] {});
  });
  double sync = per_call([&] {
    mpi.run([&] {
      for (int i = 0; i < kCalls; ++i) MPI_Win_sync(raw.win);
    });
  });
  double iprobe = per_call([&] {
    mpi.run([&] {
      int flag = 0;
      for (int i = 0; i < kCalls; ++i)
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    });
  });
  double signal = per_call([&] {
    for (int i = 0; i < kCalls; ++i) world.transport().signal(rank, {seg.segment, 0}, 1, true);
  });
  double acc = per_call([&] {
    mpi.run([&] {
      int32_t one = 1;
      for (int i = 0; i < kCalls; ++i) {
        MPI_Accumulate(&one, 1, MPI_INT32_T, rank, 0, 1, MPI_INT32_T, MPI_SUM, raw.win);
        MPI_Win_flush(rank, raw.win);
      }
    });
  });
  if (rank == 0)
    std::printf(
        "notify to self: Transport::signal %.0f ns = MPI_Accumulate + MPI_Win_flush %.0f ns + MPI lock "
        "(empty call) %.0f ns + MPI_Win_sync %.0f ns + %.0f ns\n",
        signal, acc, lock, sync, signal - acc - lock - sync);
  if (rank == 0) std::printf("(a polling wait's MPI_Iprobe: %.0f ns)\n", iprobe);
  mpi.run([&] {
    MPI_Win_unlock_all(raw.win);
    MPI_Win_free(&raw.win);
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (!parse(argc, argv)) {
    std::fprintf(
        stderr,
        "usage: mpirun -np 2 mpi_transport [--trials N] [--ping-pongs N] [--only bandwidth|notify]\n");
    return 2;
  }
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
      std::printf(
          "MPI transport, rank 0 -> rank 1 (medians of %d interleaved trials; [quartiles of the "
          "trial pairs' ratios])\n",
          opts.trials);
    if (mpi->rank() == 0)
      std::printf("MPI thread mode: %s (%s)\n", thread_mode_name(mpi->comm().mode()),
                  mpi->comm().mode_reason().c_str());
    if (mpi->rank() == 0) {
      const InlineLimitChoice& inl = mpi->comm().inline_limit();
      std::printf(
          "put_async started by the core %s (%s)\n",
          inl.bytes == LLONG_MAX ? "at any size" : ("below " + std::to_string(inl.bytes) + " bytes").c_str(),
          inl.why.c_str());
    }
    if (opts.bandwidth)
      for (long long bytes : {64LL << 10, 1LL << 20, 8LL << 20}) bandwidth(*mpi, world, bytes);
    if (opts.notify) {
      latency(*mpi, world);
      mpi->barrier();
      pieces(*mpi, world);
    }
    mpi->barrier();
  }
  return 0;
}
