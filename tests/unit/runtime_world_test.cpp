// The in-process world: symmetric window heap, signals and blocking waits, abort, atomic accumulate
// and the DMA engine's completion word.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <ctime>
#include <thread>
#include <vector>

#include "ptodist/runtime/dma.h"
#include "ptodist/runtime/world.h"

namespace ptodist::runtime {
namespace {

WorldOptions two_ranks() {
  WorldOptions o;
  o.ranks = 2;
  return o;
}

// Two ranks whose DMA engine threads start transfers as soon as they are submitted, whatever the
// machine's CPU count.
WorldOptions two_ranks_eager_dma() {
  WorldOptions o = two_ranks();
  o.defer_dma = false;
  return o;
}

TEST(RuntimeWorld, WindowSegmentsAreSymmetricZeroedAndReusedAcrossRounds) {
  World w(two_ranks());
  WindowBufferValue a = w.alloc_window(64, "a");
  WindowBufferValue b = w.alloc_window(16, "b");
  EXPECT_EQ(a.segment, 0);
  EXPECT_EQ(b.segment, 1);
  for (int r = 0; r < 2; ++r) {
    std::byte* p = w.transport().window_ptr(r, {a.segment, 0});
    for (int i = 0; i < 64; ++i) EXPECT_EQ(p[i], std::byte{0});
  }
  w.transport().window_ptr(1, {b.segment, 4})[0] = std::byte{7};
  w.restart_allocation();
  EXPECT_EQ(w.alloc_window(64, "a").segment, a.segment);  // a new round finds the same segments
  w.zero_windows();
  EXPECT_EQ(w.transport().window_ptr(1, {b.segment, 4})[0], std::byte{0});
}

TEST(RuntimeWorld, SignalAddsAndSetsThePeersCell) {
  World w(two_ranks());
  WindowBufferValue s = w.alloc_window(8, "signal");
  w.transport().signal(1, {s.segment, 4}, 2, true);
  w.transport().signal(1, {s.segment, 4}, 3, true);
  auto* cell = reinterpret_cast<int32_t*>(w.transport().window_ptr(1, {s.segment, 4}));
  EXPECT_EQ(*cell, 5);
  w.transport().signal(1, {s.segment, 4}, 1, false);
  EXPECT_EQ(*cell, 1);
  EXPECT_EQ(*reinterpret_cast<int32_t*>(w.transport().window_ptr(0, {s.segment, 4})), 0);
}

double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

TEST(RuntimeWorld, ABlockedWaitSleepsUntilWokenAndBurnsNoCpu) {
  World w(two_ranks());
  WindowBufferValue s = w.alloc_window(4, "signal");
  auto* cell = reinterpret_cast<int32_t*>(w.transport().window_ptr(0, {s.segment, 0}));
  double cpu = -1;
  std::thread waiter([&] {
    double t0 = thread_cpu_seconds();
    w.block_until(0, nullptr, BlockInfo{}, [cell] { return std::atomic_ref<int32_t>(*cell).load() >= 1; });
    cpu = thread_cpu_seconds() - t0;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  w.transport().signal(0, {s.segment, 0}, 1, true);
  w.wake(0);
  waiter.join();
  EXPECT_GE(cpu, 0);
  EXPECT_LT(cpu, 0.05) << "a blocked wait spun for " << cpu << " s of CPU";
}

TEST(RuntimeWorld, AbortWakesBlockedWaitersWithRunAborted) {
  World w(two_ranks());
  std::atomic<bool> aborted{false};
  std::thread waiter([&] {
    try {
      w.block_until(1, nullptr, BlockInfo{}, [] { return false; });
    } catch (const RunAborted&) {
      aborted = true;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  w.fail(RunError{SourceSpan{}, "boom"});
  waiter.join();
  EXPECT_TRUE(aborted);
  EXPECT_TRUE(w.has_error());
  EXPECT_EQ(w.error().message, "boom");
  w.reset_status();
  EXPECT_FALSE(w.aborted());
}

TEST(RuntimeWorld, ConcurrentAccumulateLosesNoUpdate) {
  World w(two_ranks());
  WindowBufferValue s = w.alloc_window(4 * sizeof(float), "acc");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      float ones[4] = {1, 1, 1, 1};
      for (int i = 0; i < 1000; ++i)
        w.transport().accumulate(1, {s.segment, 0}, reinterpret_cast<const std::byte*>(ones), 4,
                                 ir::DType::FP32);
    });
  }
  for (auto& t : threads) t.join();
  auto* v = reinterpret_cast<float*>(w.transport().window_ptr(1, {s.segment, 0}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(v[i], 4000.0f);
}

TEST(RuntimeWorld, DmaEngineCopiesThenWritesTheCompletionWord) {
  World w(two_ranks_eager_dma());
  WindowBufferValue dst = w.alloc_window(1 << 16, "dst");
  std::vector<std::byte> src(1 << 16);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>(i * 7);
  auto session = std::make_shared<AsyncSessionState>();
  auto scratch = std::make_shared<std::vector<uint32_t>>(64, 0);
  session->scratch.data = reinterpret_cast<std::byte*>(scratch->data());
  session->block_bytes = 4096;  // the transfer goes in 16 pieces
  DmaTransfer t{true,    1, WindowAddr{dst.segment, 0}, src.data(), static_cast<long long>(src.size()),
                session, 1};
  w.dma(0).submit(t);
  w.block_until(0, nullptr, BlockInfo{},
                [&] { return std::atomic_ref<uint32_t>(*session->completion_word()).load() >= 1; });
  EXPECT_EQ(0, std::memcmp(w.transport().window_ptr(1, {dst.segment, 0}), src.data(), src.size()));
}

// A core that waits may run the queued transfers itself (DmaEngine::help), racing the engine thread
// for them: whoever runs them, they run one at a time in issue order, so the last write wins and the
// completion word never goes back.
TEST(RuntimeWorld, DmaEngineHelpKeepsIssueOrder) {
  World w(two_ranks_eager_dma());
  constexpr long long kBytes = 1 << 16;
  constexpr uint32_t kTransfers = 16;
  WindowBufferValue dst = w.alloc_window(kBytes, "dst");
  std::vector<std::vector<std::byte>> srcs(kTransfers, std::vector<std::byte>(kBytes));
  for (uint32_t k = 0; k < kTransfers; ++k) std::memset(srcs[k].data(), static_cast<int>(k + 1), kBytes);
  auto session = std::make_shared<AsyncSessionState>();
  auto scratch = std::make_shared<std::vector<uint32_t>>(64, 0);
  session->scratch.data = reinterpret_cast<std::byte*>(scratch->data());
  session->block_bytes = 4096;
  std::atomic_ref<uint32_t> word(*session->completion_word());
  w.dma(0).help([] { return false; });  // nothing queued: returns at once
  for (uint32_t k = 0; k < kTransfers; ++k)
    w.dma(0).submit(DmaTransfer{true, 1, WindowAddr{dst.segment, 0}, srcs[k].data(), kBytes, session, k + 1});
  uint32_t seen = 0;
  bool backwards = false;
  auto done = [&] {
    uint32_t now = word.load();
    backwards |= now < seen;
    seen = std::max(seen, now);
    return now >= kTransfers;
  };
  w.dma(0).help(done);
  w.block_until(0, nullptr, BlockInfo{}, done);
  w.dma(0).wait_idle();
  EXPECT_FALSE(backwards);
  EXPECT_EQ(word.load(), kTransfers);
  const std::byte* out = w.transport().window_ptr(1, {dst.segment, 0});
  EXPECT_EQ(0, std::memcmp(out, srcs.back().data(), kBytes));
}

// A deferred engine (ranks that fill the CPUs) starts nothing on its own: the transfer waits until a
// core of its rank is about to block, whatever it blocks on, and what is left when the round ends
// goes to the engine thread.
TEST(RuntimeWorld, DeferredDmaEngineRunsTransfersWhenACoreBlocks) {
  WorldOptions o = two_ranks();
  o.defer_dma = true;
  World w(o);
  ASSERT_TRUE(w.dma(0).deferred());
  WindowBufferValue dst = w.alloc_window(1 << 12, "dst");
  std::vector<std::byte> src(1 << 12, std::byte{5});
  auto session = std::make_shared<AsyncSessionState>();
  auto scratch = std::make_shared<std::vector<uint32_t>>(64, 0);
  session->scratch.data = reinterpret_cast<std::byte*>(scratch->data());
  session->block_bytes = 1024;
  std::atomic_ref<uint32_t> word(*session->completion_word());
  auto transfer = [&](uint32_t seq) {
    return DmaTransfer{
        true, 1, WindowAddr{dst.segment, 0}, src.data(), static_cast<long long>(src.size()), session, seq};
  };
  w.dma(0).submit(transfer(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(word.load(), 0u) << "a deferred engine's thread started a transfer by itself";
  // The core blocks on a signal another thread raises: it runs its rank's transfer first.
  std::atomic<bool> signalled{false};
  std::thread notifier([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    signalled.store(true);
    w.wake(0);
  });
  w.block_until(0, nullptr, BlockInfo{}, [&] { return signalled.load(); });
  notifier.join();
  EXPECT_EQ(word.load(), 1u);
  EXPECT_EQ(0, std::memcmp(w.transport().window_ptr(1, {dst.segment, 0}), src.data(), src.size()));
  // Nobody blocks again: the end of the round hands the transfer to the engine thread.
  w.dma(0).submit(transfer(2));
  w.dma(0).wait_idle();
  EXPECT_EQ(word.load(), 2u);
}

}  // namespace
}  // namespace ptodist::runtime
