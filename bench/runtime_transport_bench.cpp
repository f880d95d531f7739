// In-process transport: put (synchronous, caller's thread) and put_async (DMA engine thread, waited on
// its completion word) against a plain memcpy at 64 KiB, 1 MiB and 8 MiB; and notify -> wait latency
// between two threads (a ping-pong, half a round trip per iteration) against the same ping-pong on bare
// std::atomic wait/notify.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/world.h"

namespace {

using namespace ptodist::runtime;

WorldOptions two_ranks() {
  WorldOptions o;
  o.ranks = 2;
  return o;
}

void BM_Memcpy(benchmark::State& state) {
  std::vector<std::byte> src(state.range(0), std::byte{1}), dst(state.range(0));
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

void BM_InprocPut(benchmark::State& state) {
  World w(two_ranks());
  WindowBufferValue win = w.alloc_window(state.range(0), "dst");
  std::vector<std::byte> src(state.range(0), std::byte{1});
  for (auto _ : state) w.transport().put(1, {win.segment, 0}, src.data(), state.range(0));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

// The hand-off to the engine thread and back, whatever the machine's CPU count (with as many ranks as
// CPUs the runtime defers the copy to the waiting core instead: docs/runtime.md).
void BM_InprocPutAsync(benchmark::State& state) {
  WorldOptions o = two_ranks();
  o.defer_dma = false;
  World w(o);
  WindowBufferValue win = w.alloc_window(state.range(0), "dst");
  std::vector<std::byte> src(state.range(0), std::byte{1});
  auto session = std::make_shared<AsyncSessionState>();
  std::vector<uint32_t> scratch(64, 0);
  session->scratch.data = reinterpret_cast<std::byte*>(scratch.data());
  uint32_t seq = 0;
  for (auto _ : state) {
    ++seq;
    w.dma(0).submit(DmaTransfer{true, 1, {win.segment, 0}, src.data(), state.range(0), session, seq});
    w.block_until(0, nullptr, BlockInfo{}, [&] {
      return std::atomic_ref<uint32_t>(scratch[0]).load(std::memory_order_acquire) >= seq;
    });
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

// Rank 0 notifies rank 1's cell; rank 1's thread waits for it and notifies back.
void BM_NotifyWaitLatency(benchmark::State& state) {
  World w(two_ranks());
  WindowBufferValue cells = w.alloc_window(8, "signal");
  auto cell = [&](int rank) {
    return reinterpret_cast<int32_t*>(w.transport().window_ptr(rank, {cells.segment, 0}));
  };
  std::atomic<bool> stop{false};
  std::thread peer([&] {
    for (int32_t k = 1;; ++k) {
      try {
        w.block_until(1, nullptr, BlockInfo{},
                      [&] { return std::atomic_ref<int32_t>(*cell(1)).load() >= k || stop; });
      } catch (const RunAborted&) {
        return;
      }
      if (stop) return;
      w.transport().signal(0, {cells.segment, 0}, 1, true);
      w.wake(0);
    }
  });
  int32_t k = 0;
  for (auto _ : state) {
    ++k;
    w.transport().signal(1, {cells.segment, 0}, 1, true);
    w.wake(1);
    w.block_until(0, nullptr, BlockInfo{}, [&] { return std::atomic_ref<int32_t>(*cell(0)).load() >= k; });
  }
  stop = true;
  w.wake(1);
  peer.join();
  state.counters["one_way_seconds"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * 2, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The baseline for notify -> wait: the same ping-pong on two bare std::atomic cells with C++20 atomic
// wait/notify (a futex when it blocks), without the transport, the world or the watchdog.
void BM_AtomicWaitLatency(benchmark::State& state) {
  std::atomic<int32_t> cell[2] = {0, 0};
  std::atomic<bool> stop{false};
  std::thread peer([&] {
    for (int32_t k = 1;; ++k) {
      for (int32_t v = cell[1].load(); v < k && !stop; v = cell[1].load()) cell[1].wait(v);
      if (stop) return;
      cell[0].fetch_add(1);
      cell[0].notify_one();
    }
  });
  int32_t k = 0;
  for (auto _ : state) {
    ++k;
    cell[1].fetch_add(1);
    cell[1].notify_one();
    for (int32_t v = cell[0].load(); v < k; v = cell[0].load()) cell[0].wait(v);
  }
  stop = true;
  cell[1].fetch_add(1);
  cell[1].notify_one();
  peer.join();
  state.counters["one_way_seconds"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * 2, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_Memcpy)->Arg(64 << 10)->Arg(1 << 20)->Arg(8 << 20)->UseRealTime();
BENCHMARK(BM_InprocPut)->Arg(64 << 10)->Arg(1 << 20)->Arg(8 << 20)->UseRealTime();
BENCHMARK(BM_InprocPutAsync)->Arg(64 << 10)->Arg(1 << 20)->Arg(8 << 20)->UseRealTime();
BENCHMARK(BM_NotifyWaitLatency)->UseRealTime();
BENCHMARK(BM_AtomicWaitLatency)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
